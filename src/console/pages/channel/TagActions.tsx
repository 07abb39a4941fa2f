import { Trans, useLingui } from "@lingui/react/macro";
import { api } from "../../api";
import { toast } from "../../state/toasts";

/** Enable all, disable all and edit of a tag row. */
export function TagActions({ tag, onReload, onEdit }: { tag: string; onReload: () => void; onEdit: () => void }) {
  const { t } = useLingui();
  const setAll = async (enable: boolean) => {
    const reply = await api.post<number>(`/api/channel/tag/${enable ? "enabled" : "disabled"}`, { tag });
    if (!reply.ok) return;
    toast.success(enable ? t`Enabled ${reply.data} channels` : t`Disabled ${reply.data} channels`);
    onReload();
  };
  return (
    <div className="flex gap-1" data-testid={`tag-actions-${tag}`}>
      <button type="button" className="btn btn-xs btn-success" data-action="enable-tag" onClick={() => setAll(true)}>
        <Trans>Enable all</Trans>
      </button>
      <button type="button" className="btn btn-xs btn-warning" data-action="disable-tag" onClick={() => setAll(false)}>
        <Trans>Disable all</Trans>
      </button>
      <button type="button" className="btn btn-xs btn-primary" data-action="edit-tag" onClick={onEdit}>
        <Trans>Edit tag</Trans>
      </button>
    </div>
  );
}
