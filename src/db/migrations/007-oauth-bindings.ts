import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";
import { createTable } from "./table-builder";

/**
 * The OpenID Connect subject a user is bound to (the other providers' columns came with the foundation), and
 * one-time keys: OAuth states and used Telegram payloads, each usable once until it expires, on every instance.
 */
export function oauthBindings(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("users")
        .addColumn("oidc_id", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.createIndex("idx_users_oidc_id").on("users").column("oidc_id").execute();
      await createTable(db, dialect, "one_time_keys")
        .addColumn("key", "varchar(128)", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("idx_one_time_keys_expires").on("one_time_keys").column("expires_at").execute();
    },
  };
}
