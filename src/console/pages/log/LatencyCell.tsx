import { Trans } from "@lingui/react/macro";
import { LogType } from "../../../shared/constants";
import type { LogView } from "../../../shared/views/log";
import { firstTokenTone, TONE_BADGE, toneOfUseTime } from "./latency";
import { parseOther } from "./log-entry";

/** Total time and, for a stream, the first-token time, coloured by spec §9; only consumption rows have them. */
export function LatencyCell({ entry }: { entry: LogView }) {
  if (entry.type !== LogType.Consume) return null;
  const frt = parseOther(entry.other).frt;
  return (
    <div className="flex flex-wrap gap-1 min-w-16">
      <span
        className={`badge badge-sm whitespace-nowrap ${TONE_BADGE[toneOfUseTime(entry.use_time)]}`}
        data-testid="use-time"
      >
        {entry.use_time} s
      </span>
      {entry.is_stream && typeof frt === "number" && (
        <span
          className={`badge badge-sm whitespace-nowrap ${TONE_BADGE[firstTokenTone(frt)]}`}
          data-testid="first-token"
        >
          {(frt / 1000).toFixed(1)} s
        </span>
      )}
      <span className="badge badge-sm badge-ghost whitespace-nowrap">
        {entry.is_stream ? <Trans>Stream</Trans> : <Trans>Non-stream</Trans>}
      </span>
    </div>
  );
}
