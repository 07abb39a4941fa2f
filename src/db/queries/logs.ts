import { sql } from "kysely";
import type { Exec } from "../exec";
import type { LogRow, NewLogRow } from "../schema";

export async function insertLog(db: Exec, row: NewLogRow): Promise<void> {
  await db.k.insertInto("logs").values(row).execute();
}

/** What log lists, totals, stats and exports narrow by; an absent field matches every row. */
export interface LogFilter {
  userId?: number;
  type?: number;
  username?: string;
  tokenName?: string;
  tokenId?: number;
  modelName?: string;
  channelId?: number;
  group?: string;
  /** created_at ≥ start (unix seconds). */
  start?: number;
  /** created_at ≤ end (unix seconds). */
  end?: number;
}

/** A row's place in the newest-first order (created_at desc, id desc). */
export interface LogPlace {
  id: number;
  created_at: number;
}

export type LogRowWithChannel = LogRow & { channel_name: string | null };

/** Rows with ids in (above, upTo]: how totals count only what is new since a checkpoint. */
export interface IdRange {
  above?: number;
  upTo?: number;
}

/** Every filter is an equality or a created_at range, so each is served by an index led by its column. */
function filtered(db: Exec, f: LogFilter, ids: IdRange = {}) {
  let q = db.k.selectFrom("logs");
  if (f.userId !== undefined) q = q.where("user_id", "=", f.userId);
  if (f.type !== undefined) q = q.where("type", "=", f.type);
  if (f.username !== undefined) q = q.where("username", "=", f.username);
  if (f.tokenName !== undefined) q = q.where("token_name", "=", f.tokenName);
  if (f.tokenId !== undefined) q = q.where("token_id", "=", f.tokenId);
  if (f.modelName !== undefined) q = q.where("model_name", "=", f.modelName);
  if (f.channelId !== undefined) q = q.where("channel_id", "=", f.channelId);
  if (f.group !== undefined) q = q.where("group", "=", f.group);
  if (f.start !== undefined) q = q.where("created_at", ">=", f.start);
  if (f.end !== undefined) q = q.where("created_at", "<=", f.end);
  if (ids.above !== undefined) q = q.where("id", ">", ids.above);
  if (ids.upTo !== undefined) q = q.where("id", "<=", ids.upTo);
  return q;
}

/**
 * The places of one page of matching rows, newest first: by offset (lists), or strictly after `after`
 * (keyset, for exports). Only indexed columns are read, so skipping a deep offset never touches rows.
 */
export function pageLogPlaces(
  db: Exec,
  f: LogFilter,
  page: { limit: number; offset?: number; after?: LogPlace },
): Promise<LogPlace[]> {
  let q = filtered(db, f).select(["id", "created_at"]);
  const after = page.after;
  if (after) q = q.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.created_at, after.id)));
  q = q.orderBy("created_at", "desc").orderBy("id", "desc").limit(page.limit);
  if (page.offset) q = q.offset(page.offset);
  return q.execute();
}

/** Whole rows by id, newest first, with the name of their channel ('' when none, null when it is gone). */
export async function logRowsByIds(db: Exec, ids: number[]): Promise<LogRowWithChannel[]> {
  if (ids.length === 0) return [];
  return db.k
    .selectFrom("logs")
    .leftJoin("channels", "channels.id", "logs.channel_id")
    .selectAll("logs")
    .select("channels.name as channel_name")
    .where("logs.id", "in", ids)
    .orderBy("logs.created_at", "desc")
    .orderBy("logs.id", "desc")
    .execute();
}

export async function countLogs(db: Exec, f: LogFilter, ids: IdRange = {}): Promise<number> {
  const row = await filtered(db, f, ids)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Matching rows with id ≤ upTo, as (all matching) − (matching above upTo) in one statement, so both parts
 * see the same data and an unfiltered count can take the database's fast whole-table count.
 */
export async function countLogsUpTo(db: Exec, f: LogFilter, upTo: number): Promise<number> {
  const all = filtered(db, f).select((eb) => eb.fn.countAll().as("n"));
  const above = filtered(db, f, { above: upTo }).select((eb) => eb.fn.countAll().as("n"));
  const { rows } = await sql<{ n: number | string }>`SELECT (${all}) - (${above}) AS n`.execute(db.k);
  return Number(rows[0]!.n);
}

/** Quota summed over the matching rows. */
export async function sumQuota(db: Exec, f: LogFilter): Promise<number> {
  const row = await filtered(db, f)
    .select((eb) => sql<string | number>`COALESCE(SUM(${eb.ref("quota")}), 0)`.as("quota"))
    .executeTakeFirstOrThrow();
  return Number(row.quota);
}

export interface Consumption {
  quota: number;
  requests: number;
  tokens: number;
}

/** Quota, row count and prompt + completion tokens summed over the matching rows. */
export async function sumConsumption(db: Exec, f: LogFilter): Promise<Consumption> {
  const row = await filtered(db, f)
    .select((eb) => [
      sql<string | number>`COALESCE(SUM(${eb.ref("quota")}), 0)`.as("quota"),
      eb.fn.countAll().as("requests"),
      sql<string | number>`COALESCE(SUM(${eb.ref("prompt_tokens")} + ${eb.ref("completion_tokens")}), 0)`.as("tokens"),
    ])
    .executeTakeFirstOrThrow();
  return { quota: Number(row.quota), requests: Number(row.requests), tokens: Number(row.tokens) };
}

/** The largest value of an indexed column (0 when there is no row): an index endpoint, cheap at any size. */
async function highest(db: Exec, column: "id" | "created_at"): Promise<number> {
  const row = await db.k
    .selectFrom("logs")
    .select((eb) => eb.fn.max(column).as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The newest created_at. */
export const latestLogTime = (db: Exec): Promise<number> => highest(db, "created_at");

/** The highest log id. */
export const maxLogId = (db: Exec): Promise<number> => highest(db, "id");

/** Ids of the oldest `limit` rows created before `before`, read from the (created_at, id) index. */
export async function oldestLogIdsBefore(db: Exec, before: number, limit: number): Promise<number[]> {
  const rows = await db.k
    .selectFrom("logs")
    .select("id")
    .where("created_at", "<", before)
    .orderBy("created_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => Number(row.id));
}

/** Deletes those of `ids` still created before `before`; answers how many went. */
export async function deleteLogsByIds(db: Exec, ids: number[], before: number): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.k
    .deleteFrom("logs")
    .where("id", "in", ids)
    .where("created_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/** The group, time and `other` of the newest `limit` matching rows, newest first. */
export function newestLogFacts(
  db: Exec,
  f: LogFilter,
  limit: number,
): Promise<Pick<LogRow, "group" | "created_at" | "other">[]> {
  return filtered(db, f)
    .select(["group", "created_at", "other"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
