import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * What the drawing and music relays need on their task rows: the token that paid (a refund goes back to it) and
 * indexes on status for the poller, which reads the unfinished tasks of every channel each round.
 */
export function taskRelay(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of ["midjourneys", "tasks"]) {
        await db.schema
          .alterTable(table)
          .addColumn("token_id", "bigint", (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex(`idx_${table}_status`).on(table).columns(["status", "id"]).execute();
      }
    },
  };
}
