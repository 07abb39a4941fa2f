import { Trans, useLingui } from "@lingui/react/macro";
import { Copy, FlaskConical, Radar } from "lucide-react";
import { useState } from "react";
import { ChannelStatus, type ChannelView } from "../../../shared/channel-types";
import { api } from "../../api";
import { IconLabel } from "../../components/IconLabel";
import { DeleteButton, EditButton, StatusToggle } from "../../components/RowButtons";
import { PopoverMenu } from "../../components/PopoverMenu";
import type { RowHandlers } from "../../components/table/use-row-handlers";
import { toast } from "../../state/toasts";
import { patchChannel, testChannel } from "./channel-calls";
import { splitList } from "./channel-list";
import { UpstreamClientsDialog } from "./UpstreamClientsDialog";

export type ChannelRowHandlers = RowHandlers<ChannelView>;

/** Test (default model, or one from the menu), detect upstream, enable/disable, edit, copy, delete. */
export function ChannelActions({
  channel,
  onChanged,
  onReload,
  onEdit,
}: { channel: ChannelView } & ChannelRowHandlers) {
  const { t } = useLingui();
  const [testing, setTesting] = useState(false);
  const [detecting, setDetecting] = useState(false);
  const enabled = channel.status === ChannelStatus.Enabled;

  const test = async (model?: string) => {
    setTesting(true);
    const after = await testChannel(channel, model);
    setTesting(false);
    if (after) onChanged(after);
  };
  const toggle = async () => {
    const after = await patchChannel(channel.id, {
      status: enabled ? ChannelStatus.ManuallyDisabled : ChannelStatus.Enabled,
    });
    if (!after) return;
    toast.success(enabled ? t`Channel disabled` : t`Channel enabled`);
    onChanged(after);
  };
  const copy = async () => {
    const reply = await api.post<ChannelView>(`/api/channel/copy/${channel.id}`);
    if (!reply.ok) return;
    toast.success(t`Channel copied as ${reply.data.name}`);
    onReload();
  };
  const remove = async () => {
    const reply = await api.delete(`/api/channel/${channel.id}`);
    if (!reply.ok) return;
    toast.success(t`Channel deleted`);
    onReload();
  };
  const models = splitList(channel.models).map((model) => ({
    key: model,
    label: model,
    onSelect: () => void test(model),
  }));

  return (
    <div className="flex gap-1 items-center" data-testid={`channel-actions-${channel.id}`}>
      <div className="join">
        <button
          type="button"
          className="btn btn-xs join-item"
          data-action="test"
          disabled={testing}
          onClick={() => test()}
        >
          {testing ? (
            <span className="loading loading-spinner loading-xs" />
          ) : (
            <IconLabel icon={FlaskConical}>
              <Trans>Test</Trans>
            </IconLabel>
          )}
        </button>
        <PopoverMenu
          className="btn btn-xs join-item"
          label="▾"
          title={t`Test with a model`}
          items={models}
          testId="test-models"
        />
      </div>
      <button
        type="button"
        className="btn btn-xs btn-square"
        data-action="detect-upstream"
        title={t`Detect upstream`}
        aria-label={t`Detect upstream`}
        onClick={() => setDetecting(true)}
      >
        <Radar size={14} aria-hidden />
      </button>
      {detecting && <UpstreamClientsDialog channel={channel} onClose={() => setDetecting(false)} />}
      <StatusToggle enabled={enabled} onClick={toggle} />
      <EditButton onClick={() => onEdit(channel)} />
      <button
        type="button"
        className="btn btn-xs btn-square"
        data-action="copy"
        title={t`Copy`}
        aria-label={t`Copy`}
        onClick={copy}
      >
        <Copy size={14} aria-hidden />
      </button>
      <DeleteButton
        title={<Trans>Delete channel</Trans>}
        question={<Trans>Delete channel {channel.name}? This cannot be undone.</Trans>}
        onConfirm={remove}
      />
    </div>
  );
}
