import type { Kysely } from "kysely";
import type { Exec } from "../exec";
import { runPrepared, sqliteStatement } from "../prepared";
import type { NewLogRow, Tables } from "../schema";

/** Per-row deltas of a batch of settled calls. */
export interface ChargeTotals {
  users: Map<number, { quota: number; used: number; requests: number }>;
  tokens: Map<number, { remain: number; used: number }>;
  channels: Map<number, number>;
  logs: NewLogRow[];
}

/** Rows per multi-row INSERT (inside a SQLite transaction, one prepared row at a time instead). */
const LOG_CHUNK = 200;

/** Every column a log row may carry, with the value a row without it stores (the table's defaults). */
const LOG_DEFAULTS: Required<Omit<NewLogRow, "id">> = {
  user_id: 0,
  created_at: 0,
  type: 0,
  content: "",
  username: "",
  token_name: "",
  model_name: "",
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  use_time: 0,
  is_stream: 0,
  channel_id: 0,
  token_id: 0,
  group: "",
  ip: "",
  request_id: "",
  other: "",
};
/** Every column of a new log row, in one fixed order (the insert's, and the journal's lines). */
export const LOG_COLUMNS = Object.keys(LOG_DEFAULTS) as (keyof typeof LOG_DEFAULTS)[];
const logValues = (row: NewLogRow) => LOG_COLUMNS.map((column) => row[column] ?? LOG_DEFAULTS[column]);
const insertLog = (k: Kysely<Tables>) => k.insertInto("logs").values(LOG_DEFAULTS);

async function insertLogs(db: Exec, logs: NewLogRow[]): Promise<void> {
  if (db.sqlite) {
    const statement = sqliteStatement(db.sqlite, db, "insert-log", insertLog);
    for (const row of logs) statement.run(...(logValues(row) as never[]));
    return;
  }
  for (let i = 0; i < logs.length; i += LOG_CHUNK) {
    await db.k
      .insertInto("logs")
      .values(logs.slice(i, i + LOG_CHUNK))
      .execute();
  }
}

/**
 * Writes a batch of settled calls: balance deltas and log rows, in the caller's transaction. The statements
 * are compiled once; their parameters are the deltas in column order, then the row's id.
 */
export async function writeChargeTotals(db: Exec, totals: ChargeTotals): Promise<void> {
  await insertLogs(db, totals.logs);
  for (const [id, d] of totals.users) {
    await runPrepared(
      db,
      "charge-user",
      (k) =>
        k
          .updateTable("users")
          .set((eb) => ({
            quota: eb("quota", "+", 0),
            used_quota: eb("used_quota", "+", 0),
            request_count: eb("request_count", "+", 0),
          }))
          .where("id", "=", 0),
      [d.quota, d.used, d.requests, id],
    );
  }
  for (const [id, d] of totals.tokens) {
    await runPrepared(
      db,
      "charge-token",
      (k) =>
        k
          .updateTable("tokens")
          .set((eb) => ({ remain_quota: eb("remain_quota", "+", 0), used_quota: eb("used_quota", "+", 0) }))
          .where("id", "=", 0),
      [d.remain, d.used, id],
    );
  }
  for (const [id, used] of totals.channels) {
    await runPrepared(
      db,
      "charge-channel",
      (k) =>
        k
          .updateTable("channels")
          .set((eb) => ({ used_quota: eb("used_quota", "+", 0) }))
          .where("id", "=", 0),
      [used, id],
    );
  }
}

export async function readUserQuota(db: Exec, id: number): Promise<number | undefined> {
  const row = await db.k.selectFrom("users").select("quota").where("id", "=", id).executeTakeFirst();
  return row?.quota;
}

export async function readTokenRemain(db: Exec, id: number): Promise<number | undefined> {
  const row = await db.k.selectFrom("tokens").select("remain_quota").where("id", "=", id).executeTakeFirst();
  return row?.remain_quota;
}
