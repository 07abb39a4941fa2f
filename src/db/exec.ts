import type { Kysely } from "kysely";
import type { Db, DialectName } from "./connect";
import type { Tables } from "./schema";

/** What a query needs: the builder (a connection or an open transaction) and the dialect. */
export interface Exec {
  readonly k: Kysely<Tables>;
  readonly dialect: DialectName;
}

export function inTransaction<T>(db: Exec, work: (tx: Exec) => Promise<T>): Promise<T> {
  return db.k.transaction().execute((k) => work({ k, dialect: db.dialect }));
}

/** Inserts one row and answers its id (PostgreSQL through RETURNING, the others through the insert id). */
export async function insertReturningId(db: Exec, table: keyof Tables, values: Record<string, unknown>): Promise<number> {
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
