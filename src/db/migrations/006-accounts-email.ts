import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";
import { createTable } from "./table-builder";

/**
 * Codes and links the accounts send out (email codes, password-reset links, the second step of a sign-in), kept in
 * the database so any instance can check what another sent; only a keyed hash of each is stored. Per user: the
 * two-factor secret (encrypted at rest), its recovery codes' hashes, the last time step used (no replay), and when the
 * low-balance reminder was last sent.
 */
export function accountsEmail(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await createTable(db, dialect, "account_codes")
        .addColumn("purpose", "varchar(32)", (c) => c.notNull())
        .addColumn("subject", "varchar(191)", (c) => c.notNull())
        .addColumn("code_hash", "varchar(128)", (c) => c.notNull())
        .addColumn("user_id", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("sent_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("pk_account_codes", ["purpose", "subject"])
        .execute();
      await db.schema.createIndex("idx_account_codes_expires_at").on("account_codes").column("expires_at").execute();
      await db.schema
        .alterTable("users")
        .addColumn("totp_secret", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.alterTable("users").addColumn("totp_recovery", "text").execute();
      await db.schema
        .alterTable("users")
        .addColumn("totp_last_step", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("users")
        .addColumn("quota_reminded_at", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
