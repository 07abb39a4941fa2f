import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";
import { createTable } from "./table-builder";

/**
 * Balance leases: the part of a user's quota (and of a limited token's remain) that running instances have taken
 * to spend from memory (`leased_quota`, the sum of the account's leases), and each lease by its holder, renewed
 * while the holder lives so a dead holder's lease can be given back (see src/service/billing/leases.ts).
 */
export function quotaLeases(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("users")
        .addColumn("leased_quota", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("tokens")
        .addColumn("leased_quota", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await createTable(db, dialect, "quota_leases")
        .addColumn("holder", "varchar(64)", (c) => c.notNull())
        .addColumn("side", "integer", (c) => c.notNull())
        .addColumn("account_id", "bigint", (c) => c.notNull())
        .addColumn("amount", "bigint", (c) => c.notNull())
        .addColumn("renewed_at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("pk_quota_leases", ["holder", "side", "account_id"])
        .execute();
      await db.schema.createIndex("idx_quota_leases_renewed").on("quota_leases").column("renewed_at").execute();
    },
  };
}
