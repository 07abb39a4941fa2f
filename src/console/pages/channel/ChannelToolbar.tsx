import { Trans, useLingui } from "@lingui/react/macro";
import { api } from "../../api";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Toggle } from "../../components/form/Toggle";
import { toast } from "../../state/toasts";

export interface ToolbarModes {
  idSort: boolean;
  tagMode: boolean;
  batch: boolean;
}

interface ChannelToolbarProps {
  modes: ToolbarModes;
  onMode: (mode: keyof ToolbarModes, on: boolean) => void;
  onAdd: () => void;
  onReload: () => void;
}

/** Whole-list actions (add, test all, balances, delete disabled, repair, refresh) and the list's modes. */
export function ChannelToolbar({ modes, onMode, onAdd, onReload }: ChannelToolbarProps) {
  const { t } = useLingui();
  /** Runs a whole-list call; `done` words its answer. */
  const run = (call: () => Promise<{ ok: boolean; data?: unknown }>, done: (data: any) => string) => async () => {
    const reply = await call();
    if (!reply.ok) return;
    toast.success(done(reply.data));
    onReload();
  };
  const testAll = run(
    () => api.get("/api/channel/test"),
    () => t`Testing all channels in the background; refresh to see the results`,
  );
  const balances = run(
    () => api.get("/api/channel/update_balance"),
    (d: { updated: number; failed: number; unsupported: number }) =>
      t`Balances: ${d.updated} updated, ${d.failed} failed, ${d.unsupported} not supported by their type`,
  );
  const deleteDisabled = run(
    () => api.delete("/api/channel/disabled"),
    (n: number) => t`Deleted ${n} disabled channels`,
  );
  const repair = run(
    () => api.post("/api/channel/fix"),
    (d: { channels: number; abilities: number }) =>
      t`Repaired: ${d.abilities} abilities rebuilt from ${d.channels} channels`,
  );
  const toggles: [keyof ToolbarModes, string][] = [
    ["idSort", t`Sort by ID`],
    ["tagMode", t`Group by tag`],
    ["batch", t`Batch mode`],
  ];
  return (
    <div className="flex flex-wrap gap-2 items-center" data-testid="channel-toolbar">
      <button type="button" className="btn btn-primary btn-sm" data-action="add-channel" onClick={onAdd}>
        <Trans>Add channel</Trans>
      </button>
      <button type="button" className="btn btn-sm" data-action="test-all" onClick={testAll}>
        <Trans>Test all channels</Trans>
      </button>
      <button type="button" className="btn btn-sm" data-action="update-balances" onClick={balances}>
        <Trans>Update all balances</Trans>
      </button>
      <ConfirmButton
        className="btn btn-sm btn-error"
        action="delete-disabled"
        danger
        onConfirm={deleteDisabled}
        title={<Trans>Delete disabled channels</Trans>}
        question={<Trans>Delete every manually or automatically disabled channel? This cannot be undone.</Trans>}
      >
        <Trans>Delete disabled channels</Trans>
      </ConfirmButton>
      <ConfirmButton
        className="btn btn-sm"
        action="fix"
        onConfirm={repair}
        title={<Trans>Repair database consistency</Trans>}
        question={<Trans>Rebuild the routing abilities of every channel from the channels?</Trans>}
      >
        <Trans>Repair database</Trans>
      </ConfirmButton>
      <button type="button" className="btn btn-sm" data-action="refresh" onClick={onReload}>
        <Trans>Refresh</Trans>
      </button>
      <div className="flex flex-wrap gap-x-4">
        {toggles.map(([mode, label]) => (
          <Toggle key={mode} label={label} name={mode} checked={modes[mode]} onChange={(on) => onMode(mode, on)} />
        ))}
      </div>
    </div>
  );
}
