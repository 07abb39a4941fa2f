import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { findFirstLiveRoot } from "../../src/db/queries/users";
import { insertLog } from "../../src/db/queries/logs";
import type { UserRow } from "../../src/db/schema";
import { bootstrapRoot } from "../../src/service/accounts/setup";
import type { ServiceContext } from "../../src/service/context";
import { tailLogs } from "../../src/service/logs/tail";
import { openOverview } from "../../src/service/stats/overview";
import { SETTLE_SECONDS, startOfDay } from "../../src/service/stats/today";
import { nowSeconds } from "../../src/service/time";
import { createUserAsAdmin } from "../../src/service/users/admin";
import { LogType, Role } from "../../src/shared/constants";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases";
import { userRow } from "../support/rows";
import { openTestContext } from "../support/server";

const DAY = 86_400;
/** Noon of a day long past, so rows of the relay or of other tests never fall in it. */
const NOON = startOfDay(1_700_000_000) + DAY / 2;

describe.each(DIALECTS)("the TUI's overview and log tail on %s", (dialect) => {
  let database: TestDatabase;
  let ctx: ServiceContext;
  let root: UserRow;
  let common: UserRow;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    ctx = await openTestContext(database);
    await bootstrapRoot(ctx);
    root = (await findFirstLiveRoot(ctx.db, Role.Root))!;
    common = (await userRow(
      ctx,
      (
        await createUserAsAdmin(ctx, root, { username: "plain", password: "password-1234" })
      ).id,
    )) as UserRow;
  });
  afterAll(async () => {
    await ctx.close();
    await database.drop();
  });

  const row = (
    created_at: number,
    fields: { model?: string; user?: string; type?: number; quota?: number; tokens?: [number, number] } = {},
  ) =>
    insertLog(ctx.db, {
      user_id: common.id,
      username: fields.user ?? "u1",
      created_at,
      type: fields.type ?? LogType.Consume,
      model_name: fields.model ?? "m1",
      quota: fields.quota ?? 0,
      prompt_tokens: fields.tokens?.[0] ?? 0,
      completion_tokens: fields.tokens?.[1] ?? 0,
    });

  describe("overview", () => {
    beforeAll(async () => {
      await row(NOON - 10, { model: "m1", user: "u1", quota: 100, tokens: [10, 5] });
      await row(NOON - 59, { model: "m2", user: "u2", quota: 200, tokens: [20, 10] });
      await row(NOON - 61, { model: "m1", user: "u1", quota: 300, tokens: [30, 15] });
      await row(startOfDay(NOON) - 5, { model: "yesterday", user: "u3", quota: 1000 });
      await row(NOON - 30, { type: LogType.Error, model: "m1" });
      await row(NOON - 5, { type: LogType.Manage, quota: 999 });
    });

    test("requests and tokens per minute are the consume rows of the last 60 s; quota and requests today are today's consume rows", async () => {
      const o = await openOverview(ctx, root).read(NOON);
      expect({
        rpm: o.requestsPerMinute,
        tpm: o.tokensPerMinute,
        quota: o.quotaToday,
        requests: o.requestsToday,
      }).toEqual({
        rpm: 2,
        tpm: 45,
        quota: 600,
        requests: 3,
      });
      expect(o.topModels).toEqual([
        { name: "m1", requests: 2, tokens: 60, quota: 400 },
        { name: "m2", requests: 1, tokens: 30, quota: 200 },
      ]);
      expect(o.topUsers.map((u) => u.name)).toEqual(["u1", "u2"]);
    });

    test("the error rate is error rows over error and consume rows of the last hour, and not recorded while ErrorLogEnabled is off", async () => {
      expect((await openOverview(ctx, root).read(NOON)).errors).toEqual({
        failed: 1,
        calls: 4,
        rate: null,
        recorded: false,
      });
      await ctx.options.set("ErrorLogEnabled", true);
      expect((await openOverview(ctx, root).read(NOON)).errors).toEqual({
        failed: 1,
        calls: 4,
        rate: 0.25,
        recorded: true,
      });
      await ctx.options.set("ErrorLogEnabled", false);
    });

    test("today's totals are extended as time passes, never counted twice, and start over at midnight", async () => {
      const feed = openOverview(ctx, root);
      await feed.read(NOON);
      await row(NOON + 1, { model: "m3", quota: 50 });
      await row(NOON + SETTLE_SECONDS + 3, { model: "m3", quota: 50 });
      const later = NOON + SETTLE_SECONDS + 5;
      const first = await feed.read(later);
      expect(await feed.read(later)).toEqual(first);
      expect(await feed.read(later + 30)).toEqual({
        ...(await openOverview(ctx, root).read(later + 30)),
        at: later + 30,
      });
      expect(first.quotaToday).toBe(700);
      const tomorrow = await feed.read(startOfDay(NOON) + DAY + 60);
      expect({ quota: tomorrow.quotaToday, models: tomorrow.topModels }).toEqual({ quota: 0, models: [] });
    });

    test("the top lists keep the 5 that spent most", async () => {
      for (let i = 1; i <= 7; i++) await row(NOON - 1000, { model: `top-${i}`, user: `top-${i}`, quota: 10_000 * i });
      const o = await openOverview(ctx, root).read(NOON);
      expect(o.topModels.map((m) => m.name)).toEqual(["top-7", "top-6", "top-5", "top-4", "top-3"]);
      expect(o.topUsers.map((u) => u.name)).toEqual(["top-7", "top-6", "top-5", "top-4", "top-3"]);
    });

    test("only administrators see it", () => {
      expect(() => openOverview(ctx, common)).toThrow("Unauthorized, insufficient privileges");
    });
  });

  describe("log tail", () => {
    test("answers the newest rows, then only rows not shown yet, including a late row stamped a little earlier", async () => {
      const now = nowSeconds();
      for (let i = 0; i < 4; i++) await row(now - 100 + i, { user: "tail", model: `t${i}` });
      const first = await tailLogs(ctx, root, { username: "tail" }, undefined, 3);
      expect(first.rows.map((r) => r.model_name)).toEqual(["t3", "t2", "t1"]);
      expect((await tailLogs(ctx, root, { username: "tail" }, first.cursor, 3)).rows).toEqual([]);
      await row(now - 95, { user: "tail", model: "new" });
      await row(now - 98, { user: "tail", model: "late" });
      await row(now - 94, { user: "other", model: "elsewhere" });
      const next = await tailLogs(ctx, root, { username: "tail" }, first.cursor, 3);
      expect(next.rows.map((r) => r.model_name)).toEqual(["new", "late"]);
      expect((await tailLogs(ctx, root, { username: "tail" }, next.cursor, 3)).rows).toEqual([]);
    });

    test("keeps to the admin log list's filters, errors only included, and only for administrators", async () => {
      const now = nowSeconds();
      await row(now, { user: "filtered", model: "ok" });
      await row(now, { user: "filtered", model: "failed", type: LogType.Error });
      const errors = await tailLogs(ctx, root, { username: "filtered", type: LogType.Error });
      expect(errors.rows.map((r) => r.model_name)).toEqual(["failed"]);
      await expect(tailLogs(ctx, common, {})).rejects.toThrow("Unauthorized, insufficient privileges");
    });
  });
});
