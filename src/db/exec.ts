import type { Database as SqliteDatabase } from "bun:sqlite";
import type { Kysely } from "kysely";
import type { Db, DialectName } from "./connect";
import type { Tables } from "./schema";

/**
 * Encrypts and decrypts the columns that hold secrets (channel keys): a port the service implements and hands in
 * at start-up, so the key never passes through the database layer's own configuration.
 */
export interface SecretColumns {
  seal(plain: string): string;
  open(stored: string): string;
}

/** What a query needs: the builder (a connection or an open transaction) and the dialect. */
export interface Exec {
  readonly k: Kysely<Tables>;
  readonly dialect: DialectName;
  /** Absent: secret columns are read and written as they are (tools over a database without the service). */
  readonly secrets?: SecretColumns;
  /**
   * SQLite's own handle, on a transaction only (it holds the one connection): hot batch writes run
   * prepared statements on it without the builder.
   */
  readonly sqlite?: SqliteDatabase;
}

export function inTransaction<T>(db: Exec | Db, work: (tx: Exec) => Promise<T>): Promise<T> {
  const sqlite = "sqliteHandle" in db ? db.sqliteHandle : undefined;
  return db.k.transaction().execute((k) => work({ k, dialect: db.dialect, sqlite, secrets: db.secrets }));
}

/** Inserts one row and answers its id (PostgreSQL through RETURNING, the others through the insert id). */
export async function insertReturningId(
  db: Exec,
  table: keyof Tables,
  values: Record<string, unknown>,
): Promise<number> {
  const insert = db.k.insertInto(table).values(values as any);
  if (db.dialect === "postgres") {
    const row = (await insert.returning("id" as any).executeTakeFirstOrThrow()) as { id: number };
    return Number(row.id);
  }
  const result = await insert.executeTakeFirstOrThrow();
  return Number(result.insertId);
}

/** Number of rows an UPDATE or DELETE touched. */
export const affected = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }): number =>
  Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0n);
