import { Trans, useLingui } from "@lingui/react/macro";
import { Copy, Eye } from "lucide-react";
import { IconLabel } from "../../components/IconLabel";
import { useState } from "react";
import type { TokenView } from "../../../shared/views/token";
import { api } from "../../api";
import { DeleteButton, EditButton, StatusToggle } from "../../components/RowButtons";
import { KeyListDialog } from "../../components/KeyListDialog";
import type { RowHandlers } from "../../components/table/use-row-handlers";
import { copyText } from "../../state/clipboard";
import { toast } from "../../state/toasts";
import { ChatMenu } from "./ChatMenu";
import { revealKey, TokenStatus } from "./token-api";

export type TokenRowHandlers = RowHandlers<TokenView>;

/** View key, copy, chat links, enable/disable (1 and 2 only), edit, delete. */
export function TokenActions({ token, onChanged, onReload, onEdit }: { token: TokenView } & TokenRowHandlers) {
  const { t } = useLingui();
  const [shown, setShown] = useState<string | null>(null);
  const enabled = token.status === TokenStatus.Enabled;
  const view = async () => setShown((await revealKey(token.id)) ?? null);
  const copy = async () => {
    const key = await revealKey(token.id);
    if (key) await copyText(key, t`Key copied to the clipboard`);
  };
  const toggle = async () => {
    const status = enabled ? TokenStatus.Disabled : TokenStatus.Enabled;
    const reply = await api.put<TokenView>("/api/token/?status_only=true", { id: token.id, status });
    if (!reply.ok) return;
    toast.success(enabled ? t`Token disabled` : t`Token enabled`);
    onChanged(reply.data);
  };
  const remove = async () => {
    const reply = await api.delete(`/api/token/${token.id}`);
    if (!reply.ok) return;
    toast.success(t`Token deleted`);
    onReload();
  };
  return (
    <div className="flex gap-1 items-center" data-testid={`token-actions-${token.id}`}>
      <button type="button" className="btn btn-xs" data-action="view-key" onClick={view}>
        <IconLabel icon={Eye}>
          <Trans>View key</Trans>
        </IconLabel>
      </button>
      <button type="button" className="btn btn-xs" data-action="copy-key" onClick={copy}>
        <IconLabel icon={Copy}>
          <Trans>Copy</Trans>
        </IconLabel>
      </button>
      <ChatMenu tokenId={token.id} />
      <StatusToggle enabled={enabled} onClick={toggle} />
      <EditButton onClick={() => onEdit(token)} />
      <DeleteButton
        title={<Trans>Delete token</Trans>}
        question={<Trans>Delete token {token.name}? This cannot be undone.</Trans>}
        onConfirm={remove}
      />
      {shown && (
        <KeyListDialog title={<Trans>Key of {token.name}</Trans>} keys={[shown]} onClose={() => setShown(null)} />
      )}
    </div>
  );
}
