import { sql } from "kysely";
import type { Exec } from "../exec";

/** The columns the overview ranks consumption by. */
export type RankedColumn = "model_name" | "username";

export interface ColumnTotals {
  name: string;
  requests: number;
  /** Prompt + completion tokens. */
  tokens: number;
  quota: number;
}

/**
 * Rows of one type with created_at in [start, end), summed per model or per user. The range is a range of
 * idx_logs_type_usage (type, created_at, ...); the grouped column is read from the rows of that range.
 */
export async function totalsPer(
  db: Exec,
  column: RankedColumn,
  type: number,
  start: number,
  end: number,
): Promise<ColumnTotals[]> {
  const rows = await db.k
    .selectFrom("logs")
    .select((eb) => [
      eb.ref(column).as("name"),
      eb.fn.countAll().as("requests"),
      sql<string | number>`COALESCE(SUM(${eb.ref("prompt_tokens")} + ${eb.ref("completion_tokens")}), 0)`.as("tokens"),
      sql<string | number>`COALESCE(SUM(${eb.ref("quota")}), 0)`.as("quota"),
    ])
    .where("type", "=", type)
    .where("created_at", ">=", start)
    .where("created_at", "<", end)
    .groupBy(column)
    .execute();
  return rows.map((row) => ({
    name: String(row.name),
    requests: Number(row.requests),
    tokens: Number(row.tokens),
    quota: Number(row.quota),
  }));
}
