import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * The look-alike form of each username (the service computes it; see src/service/users/names.ts), unique so two
 * registrations racing for look-alike names cannot both win. NULL until the service fills it in at start-up:
 * every dialect allows many NULLs under a unique index.
 */
export function usernameKeys(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("users").addColumn("username_key", "varchar(255)").execute();
      await db.schema.createIndex("idx_users_username_key").on("users").column("username_key").unique().execute();
    },
  };
}
