import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { api } from "../../../api";
import { copyText } from "../../../state/clipboard";
import { SettingCard } from "./SettingCard";

/** A new system access token (the previous one stops working), copied at once. */
export function AccessTokenCard() {
  const { t } = useLingui();
  const [token, setToken] = useState("");
  const generate = async () => {
    const reply = await api.get<string>("/api/user/token");
    if (!reply.ok) return;
    setToken(reply.data);
    await copyText(reply.data, t`Token reset and copied to the clipboard`);
  };
  return (
    <SettingCard title={<Trans>System access token</Trans>} testId="access-token">
      <p className="text-sm opacity-80">
        <Trans>For calling the management API from scripts. Generating a new one invalidates the previous one.</Trans>
      </p>
      {token && (
        <input
          className="input w-full font-mono"
          readOnly
          value={token}
          data-testid="access-token-value"
          aria-label={t`Access token`}
        />
      )}
      <div>
        <button type="button" className="btn btn-sm" data-testid="generate-token" onClick={generate}>
          <Trans>Generate access token</Trans>
        </button>
      </div>
    </SettingCard>
  );
}
