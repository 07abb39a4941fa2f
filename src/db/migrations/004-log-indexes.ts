import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";

/**
 * Indexes for the log screens at tens of millions of rows. Each filter the console sends leads one index,
 * followed by (created_at, id) so a filtered page is an index walk in the lists' order (newest first) and
 * a time range is a range of it; the columns after that let totals and stats be counted and summed
 * from the index alone, without reading rows:
 *   - type: the admin's type selector, and every stat (type 2) and rpm/tpm (type 2, last 60 s);
 *   - username (admin) and user_id (a user's own rows), with the model and token filters a user's
 *     rows are most often narrowed by;
 *   - model_name and channel_id (admin), each with the usage columns for stats;
 *   - token_name and group, narrow: enough to count without reading rows.
 * 001's (created_at, id) serves unfiltered lists, time ranges and cleanup; (user_id, id) counts a user's
 * rows past a checkpoint. 001's (type, created_at) and (username, created_at) are prefixes of the new ones.
 */
const USAGE = ["quota", "prompt_tokens", "completion_tokens"];
const LOG_INDEXES: Record<string, string[]> = {
  idx_logs_type_usage: ["type", "created_at", "id", ...USAGE],
  idx_logs_username_usage: ["username", "created_at", "id", "type", "model_name", "token_name", ...USAGE],
  idx_logs_user_usage: ["user_id", "created_at", "id", "type", "model_name", "token_name", ...USAGE],
  idx_logs_model_usage: ["model_name", "created_at", "id", "type", ...USAGE],
  idx_logs_channel_usage: ["channel_id", "created_at", "id", "type", ...USAGE],
  idx_logs_token_created: ["token_name", "created_at", "id"],
  idx_logs_group_created: ["group", "created_at", "id"],
};

export function logIndexes(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const [name, columns] of Object.entries(LOG_INDEXES)) {
        await db.schema.createIndex(name).on("logs").columns(columns).execute();
      }
      for (const name of ["idx_logs_type_created", "idx_logs_username_created"]) {
        const drop = db.schema.dropIndex(name);
        await (dialect === "mysql" ? drop.on("logs") : drop).execute();
      }
    },
  };
}
