import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";
import { createTable, withId } from "./table-builder";

/** Channels with their abilities (group × model), and users' access tokens. */
export function relay(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(createTable(db, dialect, "channels"), dialect)
        .addColumn("type", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("openai_organization", "varchar(128)", (c) => c.notNull().defaultTo(""))
        .addColumn("test_model", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("name", "varchar(128)", (c) => c.notNull())
        .addColumn("weight", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_time", "bigint", (c) => c.notNull())
        .addColumn("test_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("response_time", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("base_url", "varchar(512)", (c) => c.notNull().defaultTo(""))
        .addColumn("other", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("balance", "double precision", (c) => c.notNull().defaultTo(0))
        .addColumn("balance_updated_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("models", "text", (c) => c.notNull())
        .addColumn("group", "varchar(255)", (c) => c.notNull().defaultTo("default"))
        .addColumn("used_quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("model_mapping", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("status_code_mapping", "varchar(1024)", (c) => c.notNull().defaultTo(""))
        .addColumn("priority", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("auto_ban", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("other_info", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("tag", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("setting", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("remark", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .execute();
      for (const column of ["name", "tag", "status"]) {
        await db.schema.createIndex(`idx_channels_${column}`).on("channels").column(column).execute();
      }

      await createTable(db, dialect, "abilities")
        .addColumn("group", "varchar(64)", (c) => c.notNull())
        .addColumn("model", "varchar(255)", (c) => c.notNull())
        .addColumn("channel_id", "bigint", (c) => c.notNull())
        .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("priority", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("weight", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("tag", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addPrimaryKeyConstraint("pk_abilities", ["group", "model", "channel_id"])
        .execute();
      await db.schema.createIndex("idx_abilities_channel").on("abilities").column("channel_id").execute();

      await withId(createTable(db, dialect, "tokens"), dialect)
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("key_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("key_sealed", "text", (c) => c.notNull())
        .addColumn("key_masked", "varchar(64)", (c) => c.notNull())
        .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("name", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("created_time", "bigint", (c) => c.notNull())
        .addColumn("accessed_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("expired_time", "bigint", (c) => c.notNull().defaultTo(-1))
        .addColumn("remain_quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("unlimited_quota", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("model_limits_enabled", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("model_limits", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("allow_ips", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("used_quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("group", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("cross_group_retry", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("deleted_at", "bigint")
        .execute();
      await db.schema.createIndex("idx_tokens_user").on("tokens").columns(["user_id", "id"]).execute();
      await db.schema.createIndex("idx_tokens_name").on("tokens").column("name").execute();
    },
  };
}
