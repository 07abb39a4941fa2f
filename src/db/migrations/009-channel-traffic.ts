import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Channels' traffic settings: `channel_info` (JSON; a multi-key channel's per-key state, see
 * src/service/channels/multi-key.ts), `param_override` (JSON merged into the upstream body) and `header_override`
 * (JSON of extra upstream headers). '' means none.
 */
export function channelTraffic(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of ["channel_info", "param_override", "header_override"]) {
        await db.schema
          .alterTable("channels")
          .addColumn(column, "text", (c) => c.notNull().defaultTo(""))
          .execute();
      }
    },
  };
}
