import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";
import { createTable } from "./table-builder";

/**
 * Where an import put a streamed row (a log, a task) whose source id was already taken in Tollgate: without it a
 * second import could not tell that row from a new one, and would insert it again.
 */
export function importRenumbered(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await createTable(db, dialect, "import_renumbered")
        .addColumn("table_name", "varchar(32)", (c) => c.notNull())
        .addColumn("source_id", "bigint", (c) => c.notNull())
        .addColumn("target_id", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("pk_import_renumbered", ["table_name", "source_id", "target_id"])
        .execute();
    },
  };
}
