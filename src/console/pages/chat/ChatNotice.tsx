import { Trans, useLingui } from "@lingui/react/macro";
import type { Target } from "./chat-target";

/** What the chat pages show instead of the chat: the spec's configuration errors, or a wait. */
export function ChatNotice({ target }: { target: Target }) {
  const { t } = useLingui();
  if ("template" in target) {
    return (
      <div className="flex items-center gap-2 p-6" data-testid="chat-loading">
        <span className="loading loading-spinner" />
        <Trans>Loading, please wait…</Trans>
      </div>
    );
  }
  const message = {
    config: t`Chat link configuration error, contact the administrator`,
    none: t`Contact the administrator to configure chat links`,
    unset: t`The chat or query link is not set`,
  }[target.problem];
  return (
    <div role="alert" className="alert alert-warning" data-testid="chat-problem">
      {message}
    </div>
  );
}
