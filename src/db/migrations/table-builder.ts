import { sql, type CreateTableBuilder, type Kysely } from "kysely";
import type { DialectName } from "../connect";

/** Dialect differences of DDL, in one place: auto ids, table charset. */
export function createTable(db: Kysely<any>, dialect: DialectName, name: string) {
  let builder = db.schema.createTable(name) as CreateTableBuilder<string, never>;
  if (dialect === "mysql") builder = builder.modifyEnd(sql`DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
  return builder;
}

export function withId(builder: CreateTableBuilder<string, never>, dialect: DialectName) {
  if (dialect === "sqlite") return builder.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  if (dialect === "postgres") {
    return builder.addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity());
  }
  return builder.addColumn("id", "bigint", (c) => c.primaryKey().autoIncrement());
}

/** Text that may exceed 64 KiB (MySQL's TEXT limit): MEDIUMTEXT there, TEXT elsewhere. */
export const longText = (dialect: DialectName) => (dialect === "mysql" ? sql`mediumtext` : sql`text`);
