import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Channels' traffic settings: `channel_info` (JSON; a multi-key channel's per-key state, see
 * src/service/channels/multi-key.ts), `param_override` (JSON merged into the upstream body) and `header_override`
 * (JSON of extra upstream headers). '' means none. Tokens' and users' rate limits: requests and tokens per minute
 * (0: none; a user's 0 falls back to the TrafficLimitGroup default of the group).
 */
export function trafficPolicy(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of ["channel_info", "param_override", "header_override"]) {
        await db.schema
          .alterTable("channels")
          .addColumn(column, "text", (c) => c.notNull().defaultTo(""))
          .execute();
      }
      for (const table of ["tokens", "users"]) {
        for (const column of ["rpm_limit", "tpm_limit"]) {
          await db.schema
            .alterTable(table)
            .addColumn(column, "bigint", (c) => c.notNull().defaultTo(0))
            .execute();
        }
      }
    },
  };
}
