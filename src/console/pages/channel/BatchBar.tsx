import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { api } from "../../api";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { toast } from "../../state/toasts";

interface BatchBarProps {
  ids: number[];
  /** After a batch action: clear the selection and reload. */
  onDone: () => void;
}

/** Batch mode: delete the ticked channels, or set one tag on them. */
export function BatchBar({ ids, onDone }: BatchBarProps) {
  const { t } = useLingui();
  const [open, setOpen] = useState<"delete" | "tag" | null>(null);
  const [tag, setTag] = useState("");
  const ask = (what: "delete" | "tag") => {
    if (ids.length > 0) return setOpen(what);
    toast.error(
      what === "delete"
        ? t`Please select the channels to delete first!`
        : t`Please select the channels to set a tag for first!`,
    );
  };
  const finish = (message: string) => {
    toast.success(message);
    setOpen(null);
    setTag("");
    onDone();
  };
  const remove = async () => {
    const reply = await api.post<number>("/api/channel/batch", { ids });
    if (reply.ok) finish(t`Deleted ${reply.data} channels`);
  };
  const setTagOnAll = async () => {
    if (!tag.trim()) return toast.error(t`The tag cannot be empty!`);
    const reply = await api.post<number>("/api/channel/batch/tag", { ids, tag: tag.trim() });
    if (reply.ok) finish(t`Tag set on ${reply.data} channels`);
  };
  return (
    <div className="flex flex-wrap gap-2 items-center" data-testid="batch-bar">
      <span className="text-sm">
        <Trans>{ids.length} selected</Trans>
      </span>
      <button
        type="button"
        className="btn btn-sm btn-error"
        data-action="delete-selected"
        onClick={() => ask("delete")}
      >
        <Trans>Delete selected</Trans>
      </button>
      <button type="button" className="btn btn-sm" data-action="tag-selected" onClick={() => ask("tag")}>
        <Trans>Set tag</Trans>
      </button>
      {open === "delete" && (
        <ConfirmDialog danger title={<Trans>Delete channels</Trans>} onCancel={() => setOpen(null)} onConfirm={remove}>
          <Trans>Delete the {ids.length} selected channels? This cannot be undone.</Trans>
        </ConfirmDialog>
      )}
      {open === "tag" && (
        <ConfirmDialog
          title={<Trans>Set a tag on {ids.length} channels</Trans>}
          onCancel={() => setOpen(null)}
          onConfirm={setTagOnAll}
        >
          <input
            className="input w-full"
            name="batch_tag"
            placeholder={t`Tag`}
            value={tag}
            onChange={(e) => setTag(e.currentTarget.value)}
            autoFocus
          />
        </ConfirmDialog>
      )}
    </div>
  );
}
