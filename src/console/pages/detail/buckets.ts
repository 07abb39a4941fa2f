/** One hour of consumption from /api/data (per model, or per user for /api/data/users). */
export interface Bucket {
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
  model_name?: string;
  username?: string;
}

export type Granularity = "hour" | "day" | "week";
export const GRANULARITIES: readonly Granularity[] = ["hour", "day", "week"];
export type Measure = "quota" | "count" | "token_used";
type Key = "model_name" | "username";

/** How far back the dashboard looks by default for each granularity, in seconds. */
export const DEFAULT_SPAN: Record<Granularity, number> = { hour: 86_400, day: 7 * 86_400, week: 30 * 86_400 };

const pad = (n: number) => String(n).padStart(2, "0");

/** The local start (unix seconds) of the hour, day or week (from Monday) holding `seconds`. */
export function periodStart(seconds: number, granularity: Granularity): number {
  const d = new Date(seconds * 1000);
  d.setMinutes(0, 0, 0);
  if (granularity !== "hour") d.setHours(0);
  if (granularity === "week") d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return Math.floor(d.getTime() / 1000);
}

export function periodLabel(seconds: number, granularity: Granularity): string {
  const d = new Date(seconds * 1000);
  const day = `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return granularity === "hour" ? `${day} ${pad(d.getHours())}:00` : `${d.getFullYear()}-${day}`;
}

/** Each name with its total of `measure`, largest first. */
export function ranking(rows: Bucket[], key: Key, measure: Measure): { name: string; value: number }[] {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row[key] ?? "", (totals.get(row[key] ?? "") ?? 0) + row[measure]);
  return [...totals]
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
}

export interface Series {
  labels: string[];
  series: { name: string; values: number[] }[];
}

/**
 * `measure` per period and per name, for a stacked chart: the `top` names with the most of it (largest
 * first), the rest summed under `otherName`. Periods without data are left out.
 */
export function seriesOf(
  rows: Bucket[],
  key: Key,
  measure: Measure,
  granularity: Granularity,
  top: number,
  otherName: string,
): Series {
  const order = ranking(rows, key, measure)
    .slice(0, top)
    .map((r) => r.name);
  const kept = new Set(order);
  const place = (name: string) => (kept.has(name) ? order.indexOf(name) : order.length);
  const periods = [...new Set(rows.map((row) => periodStart(row.created_at, granularity)))].sort((a, b) => a - b);
  const index = new Map(periods.map((p, i) => [p, i]));
  const byName = new Map<string, number[]>();
  for (const row of rows) {
    const name = kept.has(row[key] ?? "") ? (row[key] ?? "") : otherName;
    const values =
      byName.get(name) ??
      byName
        .set(
          name,
          periods.map(() => 0),
        )
        .get(name)!;
    values[index.get(periodStart(row.created_at, granularity))!]! += row[measure];
  }
  return {
    labels: periods.map((p) => periodLabel(p, granularity)),
    series: [...byName].sort(([a], [b]) => place(a) - place(b)).map(([name, values]) => ({ name, values })),
  };
}

export function totalsOf(rows: Bucket[]): Record<Measure, number> {
  return rows.reduce(
    (sum, row) => ({
      quota: sum.quota + row.quota,
      count: sum.count + row.count,
      token_used: sum.token_used + row.token_used,
    }),
    {
      quota: 0,
      count: 0,
      token_used: 0,
    },
  );
}
