import { useLingui } from "@lingui/react/macro";
import { formatCount } from "../../../shared/quota-format";
import { showQuota } from "../../state/status";
import type { Measure } from "./buckets";

/** Totals of the range: consumption, calls and tokens. */
export function DetailSummary({ totals }: { totals: Record<Measure, number> }) {
  const { t } = useLingui();
  const stats: [string, string, string][] = [
    ["quota", t`Consumption`, showQuota(totals.quota)],
    ["count", t`Calls`, formatCount(totals.count)],
    ["tokens", t`Tokens used`, formatCount(totals.token_used)],
  ];
  return (
    <div className="stats stats-vertical tablet:stats-horizontal bg-base-100 shadow" data-testid="detail-summary">
      {stats.map(([id, title, value]) => (
        <div key={id} className="stat" data-testid={`total-${id}`}>
          <div className="stat-title">{title}</div>
          <div className="stat-value text-2xl">{value}</div>
        </div>
      ))}
    </div>
  );
}
