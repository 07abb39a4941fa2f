import { refuse } from "../errors";

/** A unix time in seconds from a query value; absent or blank gives undefined, anything else not an integer ≥ 0 is refused. */
export function timestampOf(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) refuse(`${name} must be a unix time in seconds`, 400);
  return n;
}

export interface TimeRange {
  start?: number;
  end?: number;
}

/** start_timestamp and end_timestamp of a query; a start after the end is refused. */
export function timeRangeOf(query: Record<string, unknown>): TimeRange {
  const start = timestampOf(query.start_timestamp, "start_timestamp");
  const end = timestampOf(query.end_timestamp, "end_timestamp");
  if (start !== undefined && end !== undefined && start > end)
    refuse("start_timestamp must not be after end_timestamp", 400);
  return { start, end };
}
