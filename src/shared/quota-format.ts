import { QUOTA_PER_UNIT } from "./constants";

/** Quota for people: as currency (quota / QuotaPerUnit, 2 decimals) or as a k/M/B token count. */
export function formatQuota(
  quota: number,
  options: { inCurrency: boolean; quotaPerUnit?: number; symbol?: string },
): string {
  if (options.inCurrency) {
    const perUnit = options.quotaPerUnit ?? QUOTA_PER_UNIT;
    return `${options.symbol ?? "$"}${(quota / perUnit).toFixed(2)}`;
  }
  return formatCount(quota);
}

export function formatCount(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${trim(n / 1e9)}B`;
  if (abs >= 1e6) return `${trim(n / 1e6)}M`;
  if (abs >= 1e4) return `${trim(n / 1e3)}k`;
  return String(n);
}

const trim = (x: number) => x.toFixed(2).replace(/\.?0+$/, "");
