import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { VERSION } from "../../../shared/version";
import { platform } from "../../state/status";
import { RichText } from "../RichText";

export function Footer() {
  useSignals();
  const html = platform.value?.footer_html ?? "";
  return (
    <footer className="text-center text-sm opacity-70 py-4 px-2" data-testid="footer">
      {html ? (
        <RichText text={html} format="html" />
      ) : (
        <Trans>Tollgate {VERSION}, a self-hosted gateway for large-language-model APIs</Trans>
      )}
    </footer>
  );
}
