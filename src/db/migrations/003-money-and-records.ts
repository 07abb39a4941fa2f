import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";
import { createTable, longText, withId } from "./table-builder";

/** Redemption codes, payment orders, dashboard rollups, drawing and async task records. */
export function moneyAndRecords(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(createTable(db, dialect, "redemptions"), dialect)
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("key", "varchar(32)", (c) => c.notNull().unique())
        .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("name", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("quota", "bigint", (c) => c.notNull().defaultTo(100))
        .addColumn("created_time", "bigint", (c) => c.notNull())
        .addColumn("redeemed_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("used_user_id", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("expired_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("deleted_at", "bigint")
        .execute();
      await db.schema.createIndex("idx_redemptions_name").on("redemptions").column("name").execute();

      await withId(createTable(db, dialect, "top_ups"), dialect)
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("amount", "bigint", (c) => c.notNull())
        .addColumn("money", "double precision", (c) => c.notNull())
        .addColumn("trade_no", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("payment_method", "varchar(32)", (c) => c.notNull().defaultTo(""))
        .addColumn("payment_provider", "varchar(32)", (c) => c.notNull().defaultTo("epay"))
        .addColumn("create_time", "bigint", (c) => c.notNull())
        .addColumn("complete_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("pending"))
        .execute();
      await db.schema.createIndex("idx_top_ups_user").on("top_ups").columns(["user_id", "id"]).execute();

      await withId(createTable(db, dialect, "quota_data"), dialect)
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("username", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("model_name", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("token_used", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("count", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint("uq_quota_data_bucket", ["user_id", "model_name", "created_at"])
        .execute();
      await db.schema.createIndex("idx_quota_data_created").on("quota_data").column("created_at").execute();
      await db.schema
        .createIndex("idx_quota_data_username")
        .on("quota_data")
        .columns(["username", "created_at"])
        .execute();

      await withId(createTable(db, dialect, "midjourneys"), dialect)
        .addColumn("code", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("action", "varchar(40)", (c) => c.notNull().defaultTo(""))
        .addColumn("mj_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("prompt", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("prompt_en", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("state", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("submit_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("start_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("finish_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("image_url", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("status", "varchar(20)", (c) => c.notNull().defaultTo(""))
        .addColumn("progress", "varchar(30)", (c) => c.notNull().defaultTo(""))
        .addColumn("fail_reason", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("channel_id", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("buttons", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("properties", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.createIndex("idx_midjourneys_user").on("midjourneys").columns(["user_id", "id"]).execute();
      await db.schema.createIndex("idx_midjourneys_mj_id").on("midjourneys").column("mj_id").execute();

      await withId(createTable(db, dialect, "tasks"), dialect)
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .addColumn("task_id", "varchar(191)", (c) => c.notNull().defaultTo(""))
        .addColumn("platform", "varchar(30)", (c) => c.notNull().defaultTo(""))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("group", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("channel_id", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("action", "varchar(40)", (c) => c.notNull().defaultTo(""))
        .addColumn("status", "varchar(20)", (c) => c.notNull().defaultTo(""))
        .addColumn("fail_reason", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("submit_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("start_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("finish_time", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("progress", "varchar(20)", (c) => c.notNull().defaultTo(""))
        .addColumn("properties", longText(dialect), (c) => c.notNull().defaultTo(""))
        .addColumn("data", longText(dialect), (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.createIndex("idx_tasks_user").on("tasks").columns(["user_id", "id"]).execute();
      await db.schema.createIndex("idx_tasks_task_id").on("tasks").column("task_id").execute();
    },
  };
}
