import type { Kysely, Selectable } from "kysely";
import type { Exec } from "../exec";
import type { Tables } from "../schema";

/** The two record tables: drawing (Midjourney) tasks and async tasks. */
export type RecordTable = "midjourneys" | "tasks";

export type RecordRow<T extends RecordTable> = Selectable<Tables[T]> & { channel_id: number };

export interface RecordFilter {
  userId?: number;
  channelId?: number;
  /** Exact matches on text columns (mj_id, task_id, platform). */
  equal: Record<string, string>;
  /** Bounds on submit_time, inclusive. */
  start?: number;
  end?: number;
  offset: number;
  limit: number;
}

/** A page of records, newest first, and the total that match. */
export async function pageRecords<T extends RecordTable>(
  db: Exec,
  table: T,
  f: RecordFilter,
): Promise<{ rows: RecordRow<T>[]; total: number }> {
  // The two tables share every filtered column; Kysely cannot type a query over either of them.
  let base = (db.k as unknown as Kysely<any>).selectFrom(table as string);
  if (f.userId !== undefined) base = base.where("user_id", "=", f.userId);
  if (f.channelId !== undefined) base = base.where("channel_id", "=", f.channelId);
  for (const [column, value] of Object.entries(f.equal)) base = base.where(column, "=", value);
  if (f.start !== undefined) base = base.where("submit_time", ">=", f.start);
  if (f.end !== undefined) base = base.where("submit_time", "<=", f.end);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy("id", "desc").limit(f.limit).offset(f.offset).execute(),
    base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as RecordRow<T>[], total: Number(count.n) };
}
