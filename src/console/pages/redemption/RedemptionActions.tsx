import { Trans, useLingui } from "@lingui/react/macro";
import { Copy, Eye } from "lucide-react";
import { IconLabel } from "../../components/IconLabel";
import { useState } from "react";
import { api } from "../../api";
import { DeleteButton, EditButton, StatusToggle } from "../../components/RowButtons";
import { KeyListDialog } from "../../components/KeyListDialog";
import type { RowHandlers } from "../../components/table/use-row-handlers";
import { copyText } from "../../state/clipboard";
import { toast } from "../../state/toasts";
import { RedemptionStatus, type Redemption } from "./redemption-api";

export type RedemptionRowHandlers = RowHandlers<Redemption>;

/** View, copy, enable/disable (not once used), edit (only unused), delete. */
export function RedemptionActions({ code, onChanged, onReload, onEdit }: { code: Redemption } & RedemptionRowHandlers) {
  const { t } = useLingui();
  const [viewing, setViewing] = useState(false);
  const unused = code.status === RedemptionStatus.Unused;
  const toggle = async () => {
    const status = unused ? RedemptionStatus.Disabled : RedemptionStatus.Unused;
    const reply = await api.put<Redemption>("/api/redemption/?status_only=true", { id: code.id, status });
    if (!reply.ok) return;
    toast.success(unused ? t`Redemption code disabled` : t`Redemption code enabled`);
    onChanged(reply.data);
  };
  const remove = async () => {
    const reply = await api.delete(`/api/redemption/${code.id}`);
    if (!reply.ok) return;
    toast.success(t`Redemption code deleted`);
    onReload();
  };
  return (
    <div className="flex gap-1" data-testid={`redemption-actions-${code.id}`}>
      <button type="button" className="btn btn-xs" data-action="view" onClick={() => setViewing(true)}>
        <IconLabel icon={Eye}>
          <Trans>View</Trans>
        </IconLabel>
      </button>
      <button
        type="button"
        className="btn btn-xs"
        data-action="copy-key"
        onClick={() => copyText(code.key, t`Redemption code copied to the clipboard`)}
      >
        <IconLabel icon={Copy}>
          <Trans>Copy</Trans>
        </IconLabel>
      </button>
      {code.status !== RedemptionStatus.Used && <StatusToggle enabled={unused} onClick={toggle} />}
      {unused && <EditButton onClick={() => onEdit(code)} />}
      <DeleteButton
        title={<Trans>Delete redemption code</Trans>}
        question={<Trans>Delete redemption code {code.name}? This cannot be undone.</Trans>}
        onConfirm={remove}
      />
      {viewing && (
        <KeyListDialog
          title={<Trans>Redemption code {code.name}</Trans>}
          keys={[code.key]}
          onClose={() => setViewing(false)}
        />
      )}
    </div>
  );
}
