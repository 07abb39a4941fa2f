import { useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { ChannelStatus } from "../../../shared/channel-types";
import { api } from "../../api";
import { formatDateTime } from "../../date-time";

interface KeyState {
  index: number;
  status: number;
  disabled_reason: string;
  disabled_time: number;
}
interface KeyStates {
  keys: KeyState[];
  total: number;
  enabled: number;
  mode: string;
}

/** A multi-key channel's keys by index (never the keys themselves): each one's state, enabled or disabled here. */
export function MultiKeyPanel({ channelId }: { channelId: number }) {
  const { t } = useLingui();
  const [states, setStates] = useState<KeyStates | null>(null);
  const manage = async (action: string, key_index?: number) => {
    const reply = await api.post<KeyStates>("/api/channel/multi_key/manage", {
      channel_id: channelId,
      action,
      key_index,
    });
    if (reply.ok) setStates(reply.data);
  };
  useEffect(() => {
    void manage("get_key_status");
  }, [channelId]);
  if (!states) return null;
  const label = (status: number) =>
    status === ChannelStatus.Enabled
      ? t`Enabled`
      : status === ChannelStatus.ManuallyDisabled
        ? t`Disabled`
        : t`Auto-disabled`;
  return (
    <div className="border rounded p-2 my-2" data-testid="multi-keys">
      <div className="flex items-center gap-2 text-sm mb-1">
        <span>{t`Keys: ${states.enabled} of ${states.total} enabled (${states.mode})`}</span>
        <button
          type="button"
          className="btn btn-xs"
          data-action="enable-all-keys"
          onClick={() => manage("enable_all_keys")}
        >
          {t`Enable all`}
        </button>
      </div>
      {states.keys.map((k) => (
        <div key={k.index} className="flex items-center gap-2 text-sm" data-key-index={k.index} data-status={k.status}>
          <span className="font-mono">#{k.index}</span>
          <span title={k.disabled_reason ? `${k.disabled_reason} (${formatDateTime(k.disabled_time)})` : undefined}>
            {label(k.status)}
          </span>
          <button
            type="button"
            className="btn btn-xs"
            data-action={k.status === ChannelStatus.Enabled ? "disable-key" : "enable-key"}
            onClick={() => manage(k.status === ChannelStatus.Enabled ? "disable_key" : "enable_key", k.index)}
          >
            {k.status === ChannelStatus.Enabled ? t`Disable` : t`Enable`}
          </button>
        </div>
      ))}
    </div>
  );
}
