import { useLingui } from "@lingui/react/macro";
import { ChannelStatus, type ChannelView } from "../../../shared/channel-types";
import { formatDateTime } from "../../date-time";
import { disableReasonOf, formatDuration, responseTone } from "./channel-rules";

/** A multi-key channel's enabled keys of all ("2/3 keys"), from channel_info; nothing for a single key. */
function KeyCount({ channelInfo }: { channelInfo?: string }) {
  const { t } = useLingui();
  if (!channelInfo?.includes('"is_multi_key":true')) return null;
  const info = JSON.parse(channelInfo) as { multi_key_size: number; multi_key_status_list?: Record<string, number> };
  const disabled = Object.keys(info.multi_key_status_list ?? {}).length;
  const enabled = info.multi_key_size - disabled;
  return (
    <span className="badge badge-sm badge-outline ml-1 whitespace-nowrap" data-testid="key-count">
      {t`${enabled}/${info.multi_key_size} keys`}
    </span>
  );
}

/** The status badge, with a multi-key channel's count of enabled keys beside it. */
export function ChannelStatusBadge({
  channel,
}: {
  channel: Pick<ChannelView, "status" | "other_info"> & { channel_info?: string };
}) {
  return (
    <>
      <StatusBadge channel={channel} />
      <KeyCount channelInfo={channel.channel_info} />
    </>
  );
}

/** Enabled, disabled, or auto-disabled with the reason and time from other_info as a tooltip. */
function StatusBadge({ channel }: { channel: Pick<ChannelView, "status" | "other_info"> }) {
  const { t } = useLingui();
  if (channel.status === ChannelStatus.Enabled)
    return <span className="badge badge-sm badge-success whitespace-nowrap" data-status="1">{t`Enabled`}</span>;
  if (channel.status === ChannelStatus.ManuallyDisabled)
    return <span className="badge badge-sm badge-error whitespace-nowrap" data-status="2">{t`Disabled`}</span>;
  if (channel.status !== ChannelStatus.AutoDisabled)
    return <span className="badge badge-sm badge-ghost">{t`Unknown status`}</span>;
  const info = disableReasonOf(channel.other_info);
  const tip = info ? t`Reason: ${info.reason}; at ${formatDateTime(info.time)}` : t`Disabled automatically`;
  return (
    <span className="tooltip tooltip-right" data-tip={tip} data-testid="disable-reason">
      <span className="badge badge-sm badge-warning whitespace-nowrap" data-status="3">{t`Auto-disabled`}</span>
    </span>
  );
}

const TONE_CLASS = {
  untested: "badge-ghost",
  green: "bg-green-600 text-white border-green-600",
  lime: "bg-lime-400 text-lime-950 border-lime-400",
  yellow: "bg-yellow-400 text-yellow-950 border-yellow-400",
  red: "bg-red-600 text-white border-red-600",
} as const;

/** The last test's response time, coloured by spec §4. */
export function ResponseTime({ channel }: { channel: Pick<ChannelView, "response_time" | "test_time"> }) {
  const { t } = useLingui();
  const tone = responseTone(channel.response_time);
  const text = tone === "untested" ? t`Not tested` : formatDuration(channel.response_time);
  const tested = channel.test_time ? t`Tested at ${formatDateTime(channel.test_time)}` : undefined;
  return (
    <span className={`badge badge-sm whitespace-nowrap ${TONE_CLASS[tone]}`} data-tone={tone} title={tested}>
      {text}
    </span>
  );
}
