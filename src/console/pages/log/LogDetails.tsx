import { useLingui } from "@lingui/react/macro";
import type { LogView } from "../../../shared/views/log";
import { billingFormula } from "./billing-text";
import { Facts } from "./Facts";
import { parseOther } from "./log-entry";

/** The expanded part of a log row: the content, price factors, the billing and, for admins, the channels tried. */
export function LogDetails({ entry, admin }: { entry: LogView; admin: boolean }) {
  const { t } = useLingui();
  const other = parseOther(entry.other);
  const tried = other.admin_info?.use_channel ?? [];
  const rows: [string, string | number | undefined][] = [
    [t`Request ID`, entry.request_id],
    [t`Details`, entry.content],
    [t`Model ratio`, other.model_ratio],
    [t`Completion ratio`, other.completion_ratio],
    [t`Group ratio`, other.group_ratio],
    [
      t`Model price (USD per call)`,
      other.model_price !== undefined && other.model_price >= 0 ? other.model_price : undefined,
    ],
    [t`Cached tokens`, other.cache_tokens || undefined],
    [t`First token`, other.frt ? `${other.frt} ms` : undefined],
    [t`Upstream model`, other.is_model_mapped ? other.upstream_model_name : undefined],
    [t`Usage counted by`, other.usage_source === "estimated" ? t`the gateway (the upstream reported none)` : undefined],
    [t`Billing`, billingFormula(entry, other)],
    [t`Channels tried`, admin && tried.length > 0 ? tried.map((id) => `#${id}`).join(" → ") : undefined],
  ];
  return <Facts rows={rows} testId="log-details" />;
}
