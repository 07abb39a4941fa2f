import { formatUsd } from "../../../shared/quota-format";
import type { LogView } from "../../../shared/views/log";
import type { LogOther } from "./log-entry";

const n = (value: number | undefined) => String(value ?? 0);

/** The weighted tokens of the formula: prompt (cached ones at the cache ratio) + completion × completion ratio. */
function tokensText(entry: LogView, other: LogOther): { text: string; weighted: number } {
  const cached = Math.min(other.cache_tokens ?? 0, entry.prompt_tokens);
  const completion = entry.completion_tokens * (other.completion_ratio ?? 0);
  const tail = `${entry.completion_tokens} × ${n(other.completion_ratio)}`;
  if (cached === 0) return { text: `${entry.prompt_tokens} + ${tail}`, weighted: entry.prompt_tokens + completion };
  const ratio = other.cache_ratio ?? 1;
  return {
    text: `${entry.prompt_tokens - cached} + ${cached} × ${ratio} + ${tail}`,
    weighted: entry.prompt_tokens - cached + cached * ratio + completion,
  };
}

/**
 * How a consumption row was priced (spec §9): per call, model price × group ratio; per use,
 * group ratio × model ratio × (prompt + completion × completion ratio) / 500000 dollars.
 */
export function billingFormula(entry: LogView, other: LogOther): string | undefined {
  const group = other.group_ratio;
  if (group === undefined) return undefined;
  if (other.model_price !== undefined && other.model_price >= 0) {
    return `${formatUsd(other.model_price)} × ${group} = ${formatUsd(other.model_price * group)}`;
  }
  if (other.model_ratio === undefined) return undefined;
  const tokens = tokensText(entry, other);
  return `${group} × ${other.model_ratio} × (${tokens.text}) / 500000 = ${formatUsd((group * other.model_ratio * tokens.weighted) / 500_000)}`;
}
