import type { Kysely, Selectable } from "kysely";
import { affected, insertReturningId, type Exec } from "../exec";
import type { NewLogRow, Tables } from "../schema";
import type { RecordTable } from "./tasks";

/** The columns both task tables have. */
export type SharedTaskColumns = Pick<
  Selectable<Tables["midjourneys"]>,
  | "id"
  | "user_id"
  | "token_id"
  | "channel_id"
  | "quota"
  | "action"
  | "status"
  | "progress"
  | "fail_reason"
  | "submit_time"
  | "start_time"
  | "finish_time"
  | "properties"
>;

/** A row of either table, with the columns they share readable whatever the table. */
export type TaskRow<T extends RecordTable> = Selectable<Tables[T]> & SharedTaskColumns;

/** The column holding the upstream's task id in each table. */
export const UPSTREAM_ID: Record<RecordTable, "mj_id" | "task_id"> = { midjourneys: "mj_id", tasks: "task_id" };

// The two tables share every column used here; Kysely cannot type a query over either of them.
const any = (db: Exec) => db.k as unknown as Kysely<any>;

export function insertTaskRow(db: Exec, table: RecordTable, values: Record<string, unknown>): Promise<number> {
  return insertReturningId(db, table, values);
}

/** The user's tasks of these upstream ids (another user's are not found). */
export async function ownTasksByUpstreamId<T extends RecordTable>(
  db: Exec,
  table: T,
  userId: number,
  ids: string[],
): Promise<TaskRow<T>[]> {
  if (ids.length === 0) return [];
  const rows = await any(db)
    .selectFrom(table)
    .selectAll()
    .where("user_id", "=", userId)
    .where(UPSTREAM_ID[table] as string, "in", ids)
    .orderBy("id", "desc")
    .execute();
  return rows as TaskRow<T>[];
}

/** Up to `limit` unfinished tasks (status not among `finals`) after id `afterId`, oldest first. */
export async function unfinishedTasks<T extends RecordTable>(
  db: Exec,
  table: T,
  finals: readonly string[],
  afterId: number,
  limit: number,
): Promise<TaskRow<T>[]> {
  const rows = await any(db)
    .selectFrom(table)
    .selectAll()
    .where("status", "not in", finals)
    .where(UPSTREAM_ID[table] as string, "!=", "")
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows as TaskRow<T>[];
}

/**
 * Writes `patch` to a task that is still unfinished (its status not among `finals`): answers whether it was,
 * so of two instances finishing one task only one sees true.
 */
export async function patchUnfinishedTask(
  db: Exec,
  table: RecordTable,
  id: number,
  finals: readonly string[],
  patch: Record<string, unknown>,
): Promise<boolean> {
  const result = await any(db)
    .updateTable(table)
    .set(patch)
    .where("id", "=", id)
    .where("status", "not in", finals)
    .executeTakeFirst();
  return affected(result) === 1;
}

/** Gives `quota` back to the user, the token (its balance when limited) and the channel's tally, with its log row. */
export async function writeRefund(
  db: Exec,
  r: { userId: number; tokenId: number; channelId: number; quota: number; log: NewLogRow },
): Promise<void> {
  await db.k
    .updateTable("users")
    .set((eb) => ({ quota: eb("quota", "+", r.quota), used_quota: eb("used_quota", "-", r.quota) }))
    .where("id", "=", r.userId)
    .execute();
  if (r.tokenId) {
    await db.k
      .updateTable("tokens")
      .set((eb) => ({ used_quota: eb("used_quota", "-", r.quota) }))
      .where("id", "=", r.tokenId)
      .execute();
    await db.k
      .updateTable("tokens")
      .set((eb) => ({ remain_quota: eb("remain_quota", "+", r.quota) }))
      .where("id", "=", r.tokenId)
      .where("unlimited_quota", "=", 0)
      .execute();
  }
  if (r.channelId) {
    await db.k
      .updateTable("channels")
      .set((eb) => ({ used_quota: eb("used_quota", "-", r.quota) }))
      .where("id", "=", r.channelId)
      .execute();
  }
  await db.k.insertInto("logs").values(r.log).execute();
}

/** The newest task of this upstream id, whoever it belongs to. */
export async function taskByUpstreamId<T extends RecordTable>(
  db: Exec,
  table: T,
  id: string,
): Promise<TaskRow<T> | undefined> {
  const row = await any(db)
    .selectFrom(table)
    .selectAll()
    .where(UPSTREAM_ID[table] as string, "=", id)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row as TaskRow<T> | undefined;
}
