import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DialectName } from "../connect";
import { createTable, longText, withId } from "./table-builder";

export function foundation(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(createTable(db, dialect, "users"), dialect)
        .addColumn("username", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("password", "varchar(255)", (c) => c.notNull())
        .addColumn("display_name", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("role", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("email", "varchar(255)", (c) => c.unique())
        .addColumn("github_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("wechat_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("telegram_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("linux_do_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("access_token_hash", "varchar(64)", (c) => c.unique())
        .addColumn("quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("used_quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("request_count", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("group", "varchar(64)", (c) => c.notNull().defaultTo("default"))
        .addColumn("aff_code", "varchar(32)", (c) => c.notNull().unique())
        .addColumn("aff_count", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("aff_quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("aff_history_quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("inviter_id", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("setting", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("remark", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("last_login_at", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("deleted_at", "bigint")
        .execute();
      for (const column of ["github_id", "wechat_id", "telegram_id", "linux_do_id", "inviter_id"]) {
        await db.schema.createIndex(`idx_users_${column}`).on("users").column(column).execute();
      }

      await createTable(db, dialect, "sessions")
        .addColumn("id", "varchar(64)", (c) => c.primaryKey())
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("idx_sessions_user_id").on("sessions").column("user_id").execute();
      await db.schema.createIndex("idx_sessions_expires_at").on("sessions").column("expires_at").execute();

      await createTable(db, dialect, "options")
        .addColumn("key", "varchar(191)", (c) => c.primaryKey())
        .addColumn("value", longText(dialect), (c) => c.notNull())
        .execute();

      await createTable(db, dialect, "internals")
        .addColumn("key", "varchar(191)", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();

      await withId(createTable(db, dialect, "setups"), dialect)
        .addColumn("version", "varchar(32)", (c) => c.notNull())
        .addColumn("initialized_at", "bigint", (c) => c.notNull())
        .execute();

      await withId(createTable(db, dialect, "logs"), dialect)
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("type", "integer", (c) => c.notNull())
        .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("username", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("token_name", "varchar(128)", (c) => c.notNull().defaultTo(""))
        .addColumn("model_name", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("quota", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("prompt_tokens", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("completion_tokens", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("use_time", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("is_stream", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("channel_id", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("token_id", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("group", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("ip", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("request_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("other", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      const logIndexes: Record<string, string[]> = {
        idx_logs_created_id: ["created_at", "id"],
        idx_logs_user_id: ["user_id", "id"],
        idx_logs_type_created: ["type", "created_at"],
        idx_logs_username_created: ["username", "created_at"],
      };
      for (const [name, columns] of Object.entries(logIndexes)) {
        await db.schema.createIndex(name).on("logs").columns(columns).execute();
      }
    },
  };
}
