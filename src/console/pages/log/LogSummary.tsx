import { Trans } from "@lingui/react/macro";
import { showQuota } from "../../state/status";

export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
}

/** The summary tags: quota consumed over the filters, and requests and tokens per minute right now. */
export function LogSummary({ stat }: { stat: LogStat | undefined }) {
  return (
    <div className="flex flex-wrap gap-2" data-testid="log-summary">
      <span className="badge badge-lg badge-primary" data-testid="stat-quota">
        <Trans>Consumed: {showQuota(stat?.quota ?? 0)}</Trans>
      </span>
      <span className="badge badge-lg badge-secondary" data-testid="stat-rpm">
        RPM: {stat?.rpm ?? 0}
      </span>
      <span className="badge badge-lg badge-accent" data-testid="stat-tpm">
        TPM: {stat?.tpm ?? 0}
      </span>
    </div>
  );
}
