import { formatQuota, type QuotaDisplay } from "../shared/quota-format";
import type { Column } from "./output";

/** A right-aligned column of quota in the site's display; text such as "unlimited" passes through. */
export const quotaColumn = <T>(
  header: string,
  quotaOf: (row: T) => number | string,
  display: QuotaDisplay,
): Column<T> => ({
  header,
  right: true,
  value: (row) => {
    const quota = quotaOf(row);
    return typeof quota === "number" ? formatQuota(quota, display) : quota;
  },
});

/** The named quota fields of a record in the site's display, for `show` output (never for --json). */
export function withQuotaText<R extends object>(
  record: R,
  keys: (keyof R & string)[],
  display: QuotaDisplay,
): Record<string, unknown> {
  const shown: Record<string, unknown> = Object.fromEntries(Object.entries(record));
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "number") shown[key] = formatQuota(value, display);
  }
  return shown;
}
