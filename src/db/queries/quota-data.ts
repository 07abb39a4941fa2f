import { sql, type RawBuilder } from "kysely";
import type { Exec } from "../exec";

/** One (user, model, hour) of consumption; `created_at` is the start of the hour. */
export interface QuotaBucket {
  user_id: number;
  username: string;
  model_name: string;
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

const CHUNK = 200;
const SUMMED = ["count", "quota", "token_used"] as const;

/** `SET column = stored + incoming` for each summed column, and the latest username. */
function addIncoming(incoming: (column: string) => RawBuilder<unknown>, stored: (column: string) => string) {
  const set: Record<string, RawBuilder<unknown>> = { username: incoming("username") };
  for (const column of SUMMED) set[column] = sql`${sql.ref(stored(column))} + ${incoming(column)}`;
  return set;
}

/**
 * Adds each bucket to its (user_id, model_name, created_at) row, creating the row when absent: the one
 * place where the dialects differ (ON CONFLICT on SQLite and PostgreSQL, ON DUPLICATE KEY on MySQL).
 */
export async function addToBuckets(db: Exec, buckets: QuotaBucket[]): Promise<void> {
  for (let i = 0; i < buckets.length; i += CHUNK) {
    const insert = db.k.insertInto("quota_data").values(buckets.slice(i, i + CHUNK));
    if (db.dialect === "mysql") {
      const set = addIncoming(
        (column) => sql`VALUES(${sql.ref(column)})`,
        (column) => column,
      );
      await insert.onDuplicateKeyUpdate(set).execute();
    } else {
      const set = addIncoming(
        (column) => sql`${sql.ref(`excluded.${column}`)}`,
        (column) => `quota_data.${column}`,
      );
      await insert.onConflict((oc) => oc.columns(["user_id", "model_name", "created_at"]).doUpdateSet(set)).execute();
    }
  }
}

export interface BucketFilter {
  start: number;
  end: number;
  userId?: number;
  username?: string;
}

export interface BucketSum {
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

const num = (value: unknown) => Number(value ?? 0);

function bucketsIn(db: Exec, f: BucketFilter) {
  let q = db.k.selectFrom("quota_data").where("created_at", ">=", f.start).where("created_at", "<=", f.end);
  if (f.userId !== undefined) q = q.where("user_id", "=", f.userId);
  if (f.username !== undefined) q = q.where("username", "=", f.username);
  return q;
}

/** Buckets summed per `by` and hour, oldest hour first (SUM is text on PostgreSQL and MySQL: numbers here). */
export async function sumBuckets<K extends "model_name" | "username">(
  db: Exec,
  by: K,
  f: BucketFilter,
): Promise<(BucketSum & Record<K, string>)[]> {
  const rows = await bucketsIn(db, f)
    .select((eb) => [
      eb.ref(by).as("key"),
      "created_at",
      eb.fn.sum<number>("count").as("count"),
      eb.fn.sum<number>("quota").as("quota"),
      eb.fn.sum<number>("token_used").as("token_used"),
    ])
    .groupBy([by, "created_at"])
    .orderBy("created_at")
    .orderBy(by)
    .execute();
  return rows.map((row) => ({
    [by]: String(row.key),
    created_at: num(row.created_at),
    count: num(row.count),
    quota: num(row.quota),
    token_used: num(row.token_used),
  })) as unknown as (BucketSum & Record<K, string>)[];
}
