import { type Selectable, sql } from "kysely";
import type { Exec } from "../exec";
import { sealedValues } from "./channels";
import type { Tables } from "../schema";

/** Tables an import writes rows into with the ids it chose (kept from the source where free). */
export type ImportTable =
  | "users"
  | "tokens"
  | "channels"
  | "redemptions"
  | "top_ups"
  | "logs"
  | "tasks"
  | "midjourneys";

/** Every row of a target table, for matching imported rows against what is there. */
export const allRows = <T extends ImportTable>(db: Exec, table: T) =>
  db.k.selectFrom(table).selectAll().execute() as unknown as Promise<Selectable<Tables[T]>[]>;

/** Ids of `ids` already used in the table. */
export async function takenIds(db: Exec, table: ImportTable, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.k.selectFrom(table).select("id").where("id", "in", ids).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

const CHUNK = 200;

/** Inserts rows that carry their own ids; channel keys go through the secret columns as on any channel write. */
export async function insertWithIds(db: Exec, table: ImportTable, rows: Record<string, unknown>[]): Promise<void> {
  const values = table === "channels" ? rows.map((r) => sealedValues(db, r)) : rows;
  // One INSERT per set of columns: in a multi-row INSERT, SQLite writes NULL (not the default) where a row lacks one.
  const byColumns = Map.groupBy(values, (row) => Object.keys(row).sort().join(","));
  for (const group of byColumns.values()) {
    for (let i = 0; i < group.length; i += CHUNK) {
      await db.k
        .insertInto(table)
        .values(group.slice(i, i + CHUNK) as any)
        .execute();
    }
  }
  if (db.dialect === "postgres" && rows.length > 0) await advanceIdSequence(db, table);
}

/** PostgreSQL's identity does not move past ids written explicitly: move it, or the next ordinary insert collides. */
async function advanceIdSequence(db: Exec, table: ImportTable): Promise<void> {
  await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT MAX(id) FROM ${sql.table(table)}))`.execute(
    db.k,
  );
}

export async function updateById(db: Exec, table: ImportTable, id: number, patch: Record<string, unknown>) {
  const values = table === "channels" ? sealedValues(db, patch) : patch;
  await db.k
    .updateTable(table)
    .set(values as any)
    .where("id", "=", id)
    .execute();
}

/** Sum of users' quota and used quota (ids given: those only), to prove an import kept every unit. */
export async function quotaTotals(db: Exec, ids?: number[]): Promise<{ quota: number; used: number }> {
  if (ids?.length === 0) return { quota: 0, used: 0 };
  let query = db.k
    .selectFrom("users")
    .select((eb) => [eb.fn.sum<number>("quota").as("quota"), eb.fn.sum<number>("used_quota").as("used")]);
  if (ids) query = query.where("id", "in", ids);
  const row = await query.executeTakeFirst();
  return { quota: Number(row?.quota ?? 0), used: Number(row?.used ?? 0) };
}

/** The columns a target table has now (migrations of other features may have added some). */
export async function tableColumns(db: Exec, table: ImportTable): Promise<Set<string>> {
  const tables = await db.k.introspection.getTables();
  const found = tables.find((t) => t.name.toLowerCase() === table);
  return new Set(found?.columns.map((c) => c.name.toLowerCase()) ?? []);
}

/**
 * Narrows `query` to rows whose `column` is one of `ids`: for ids close together (a batch of a source table) a
 * range, far cheaper to send and plan than thousands of parameters; the caller drops rows of the range not asked for.
 */
export function whereIdsIn<Q extends { where(...args: any[]): Q }>(query: Q, column: string, ids: number[]): Q {
  const low = Math.min(...ids);
  const high = Math.max(...ids);
  return high - low < 2 * ids.length
    ? query.where(column, ">=", low).where(column, "<=", high)
    : query.where(column, "in", ids);
}

/** The rows of `ids`, with the columns that tell whether a row is the same one imported before. */
export async function rowsByIds(
  db: Exec,
  table: ImportTable,
  ids: number[],
  columns: readonly string[],
): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  const rows = (await whereIdsIn(
    db.k.selectFrom(table).select(["id", ...columns] as any) as any,
    "id",
    ids,
  ).execute()) as Record<string, unknown>[];
  return rows.filter((r) => wanted.has(Number(r.id)));
}

export async function maxId(db: Exec, table: ImportTable): Promise<number> {
  const row = await db.k
    .selectFrom(table)
    .select((eb) => eb.fn.max<number>("id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
