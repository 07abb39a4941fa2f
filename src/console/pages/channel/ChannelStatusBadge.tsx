import { useLingui } from "@lingui/react/macro";
import { ChannelStatus, type ChannelView } from "../../../shared/channel-types";
import { formatDateTime } from "../../date-time";
import { disableReasonOf, formatDuration, responseTone } from "./channel-rules";

/** Enabled, disabled, or auto-disabled with the reason and time from other_info as a tooltip. */
export function ChannelStatusBadge({ channel }: { channel: Pick<ChannelView, "status" | "other_info"> }) {
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
