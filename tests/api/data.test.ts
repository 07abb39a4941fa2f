import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SPAN_TOO_LONG } from "../../src/service/stats/dashboard";
import { hourOf, QuotaRollup } from "../../src/service/stats/rollup";
import { newAdmin } from "../support/channels";
import { expectFailure, type ApiClient } from "../support/client";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, USER_QUOTA, type RelayEnv } from "../relay/support";

const HOUR = 3600;
const FORBIDDEN = "Unauthorized, insufficient privileges";

describe.each(DIALECTS)("dashboard data (quota_data rollups) on %s", (dialect) => {
  let r: RelayEnv;
  let admin: ApiClient;
  let other: ApiClient;
  let otherKey: string;
  /** Two hours ago and one hour ago, as hour starts: both inside the default range (the last day). */
  const H0 = hourOf(Math.floor(Date.now() / 1000)) - 2 * HOUR;
  const H1 = H0 + HOUR;

  const at = (second: number) => (r.s.ctx.relay.rollup.now = () => second);
  /** One relayed call whose upstream reports these tokens. */
  const call = async (key: string, model: string, promptTokens: number, completionTokens: number) => {
    r.fake.queueBehavior({ promptTokens, completionTokens });
    await r.openai(key).chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });
  };
  const stored = async () => {
    const rows = await r.s.ctx.db.k
      .selectFrom("quota_data")
      .selectAll()
      .orderBy("created_at")
      .orderBy("user_id")
      .orderBy("model_name")
      .execute();
    return rows.map(({ id: _, ...row }) => ({ ...row, user_id: Number(row.user_id) }));
  };
  const data = async (client: ApiClient, path: string) => {
    const reply = await client.get(path);
    expect(reply.body.success).toBe(true);
    return reply.body.data as any[];
  };
  const range = (start: number, end: number) => `start_timestamp=${start}&end_timestamp=${end}`;

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await r.setPrices({ "roll-a": 1, "roll-b": 0.5 }, { "roll-a": 2 });
    await r.addChannel({ models: "roll-a,roll-b" });
    admin = await newAdmin(r.s);
    other = await r.s.newUser();
    await r.s.root.put("/api/user/", { id: other.userId, quota: USER_QUOTA });
    otherKey = (await r.newKey({}, other)).key;
  });
  afterAll(() => r.stop());

  test("each settled call adds count 1, its quota and prompt + completion tokens to its (user, model, hour) bucket", async () => {
    const me = r.user.userId!;
    at(H0 + 100);
    await call(r.key, "roll-a", 10, 4); // 1 × (10 + 4 × 2) = 18
    await call(r.key, "roll-a", 20, 6); // 1 × (20 + 6 × 2) = 32
    await call(r.key, "roll-b", 100, 10); // 0.5 × 110 = 55
    await call(otherKey, "roll-a", 30, 5); // 40
    at(H1 + 5);
    await call(r.key, "roll-a", 8, 2); // 12
    await call(otherKey, "roll-b", 40, 20); // 30
    expect(await stored()).toEqual([]);
    await r.s.ctx.relay.rollup.flush();
    const [mine, theirs] = [r.user.username, other.username];
    expect(await stored()).toEqual(
      [
        { user_id: me, username: mine, model_name: "roll-a", created_at: H0, count: 2, quota: 50, token_used: 40 },
        { user_id: me, username: mine, model_name: "roll-b", created_at: H0, count: 1, quota: 55, token_used: 110 },
        {
          user_id: other.userId!,
          username: theirs,
          model_name: "roll-a",
          created_at: H0,
          count: 1,
          quota: 40,
          token_used: 35,
        },
        { user_id: me, username: mine, model_name: "roll-a", created_at: H1, count: 1, quota: 12, token_used: 10 },
        {
          user_id: other.userId!,
          username: theirs,
          model_name: "roll-b",
          created_at: H1,
          count: 1,
          quota: 30,
          token_used: 60,
        },
      ].sort(
        (a, b) => a.created_at - b.created_at || a.user_id - b.user_id || a.model_name.localeCompare(b.model_name),
      ),
    );
    const logged = (await r.consumeLogs()).reduce((sum, log) => sum + log.quota, 0);
    expect(logged).toBe(50 + 55 + 40 + 12 + 30);
  });

  test("GET /api/data/ (admin): every user's buckets summed per model and hour, oldest first", async () => {
    expect(await data(admin, `/api/data/?${range(H0, H1 + HOUR - 1)}`)).toEqual([
      { model_name: "roll-a", created_at: H0, count: 3, quota: 90, token_used: 75 },
      { model_name: "roll-b", created_at: H0, count: 1, quota: 55, token_used: 110 },
      { model_name: "roll-a", created_at: H1, count: 1, quota: 12, token_used: 10 },
      { model_name: "roll-b", created_at: H1, count: 1, quota: 30, token_used: 60 },
    ]);
  });

  test("GET /api/data/?username=: only that user's buckets", async () => {
    expect(await data(admin, `/api/data/?${range(H0, H1)}&username=${r.user.username}`)).toEqual([
      { model_name: "roll-a", created_at: H0, count: 2, quota: 50, token_used: 40 },
      { model_name: "roll-b", created_at: H0, count: 1, quota: 55, token_used: 110 },
      { model_name: "roll-a", created_at: H1, count: 1, quota: 12, token_used: 10 },
    ]);
  });

  test("GET /api/data/users (admin): summed per user and hour", async () => {
    const rows = await data(admin, `/api/data/users?${range(H0, H1)}`);
    const byName = (name: string) => rows.filter((row) => row.username === name);
    expect(rows).toHaveLength(4);
    expect(byName(r.user.username)).toEqual([
      { username: r.user.username, created_at: H0, count: 3, quota: 105, token_used: 150 },
      { username: r.user.username, created_at: H1, count: 1, quota: 12, token_used: 10 },
    ]);
    expect(byName(other.username)).toEqual([
      { username: other.username, created_at: H0, count: 1, quota: 40, token_used: 35 },
      { username: other.username, created_at: H1, count: 1, quota: 30, token_used: 60 },
    ]);
  });

  test("GET /api/data/self: the caller's own buckets only", async () => {
    expect(await data(other, `/api/data/self?${range(H0, H1)}`)).toEqual([
      { model_name: "roll-a", created_at: H0, count: 1, quota: 40, token_used: 35 },
      { model_name: "roll-b", created_at: H1, count: 1, quota: 30, token_used: 60 },
    ]);
  });

  test("the range: a bucket counts when its hour overlaps it; a missing range means the last day", async () => {
    expect((await data(admin, `/api/data/?${range(H1, H1 + 10)}`)).map((row) => row.created_at)).toEqual([H1, H1]);
    expect((await data(admin, `/api/data/?${range(H0 + 1800, H0 + 1801)}`)).map((row) => row.created_at)).toEqual([
      H0,
      H0,
    ]);
    const old = H0 - 3 * 24 * HOUR;
    await r.s.ctx.db.k
      .insertInto("quota_data")
      .values({
        user_id: other.userId!,
        username: other.username,
        model_name: "roll-a",
        created_at: old,
        count: 7,
        quota: 7,
        token_used: 7,
      })
      .execute();
    expect((await data(other, "/api/data/self")).map((row) => row.created_at)).toEqual([H0, H1]);
    expect((await data(other, `/api/data/self?${range(old, old + HOUR)}`))[0]).toMatchObject({
      created_at: old,
      count: 7,
    });
  });

  test("a later flush adds to the stored bucket instead of writing a second row", async () => {
    at(H1 + 200);
    await call(r.key, "roll-a", 8, 2);
    await r.s.ctx.relay.rollup.flush();
    const buckets = (await stored()).filter((row) => row.user_id === r.user.userId && row.created_at === H1);
    expect(buckets).toEqual([expect.objectContaining({ model_name: "roll-a", count: 2, quota: 24, token_used: 20 })]);
  });

  test("with DataExportEnabled off nothing is accumulated", async () => {
    await r.s.root.put("/api/option/", { key: "DataExportEnabled", value: "false" });
    const before = await stored();
    await call(r.key, "roll-a", 5, 5);
    await r.s.ctx.relay.rollup.flush();
    expect(await stored()).toEqual(before);
    await r.s.root.put("/api/option/", { key: "DataExportEnabled", value: "true" });
  });

  describe("refusals", () => {
    test("without a sign-in every data call answers 401", async () => {
      for (const path of ["/api/data/", "/api/data/users", "/api/data/self"])
        expect((await r.s.client().get(path)).status).toBe(401);
    });

    test("an ordinary user may not read everyone's data", async () => {
      for (const path of ["/api/data/", "/api/data/users"]) expectFailure(await other.get(path), 200, FORBIDDEN);
    });

    test("/api/data/self refuses a range over one month (2592000 s); exactly one month is fine", async () => {
      expectFailure(await other.get(`/api/data/self?${range(H0 - 2592001, H0)}`), 200, SPAN_TOO_LONG);
      expectFailure(await other.get(`/api/data/self?start_timestamp=${H0 - 40 * 24 * HOUR}`), 200, SPAN_TOO_LONG);
      expect((await other.get(`/api/data/self?${range(H0 - 2592000, H0)}`)).body.success).toBe(true);
    });

    test("a timestamp that is not a unix time, or a start after the end, is refused with 400", async () => {
      expectFailure(
        await admin.get("/api/data/?start_timestamp=yesterday"),
        400,
        "start_timestamp must be a unix time in seconds",
      );
      expectFailure(
        await other.get("/api/data/self?end_timestamp=1.5"),
        400,
        "end_timestamp must be a unix time in seconds",
      );
      expectFailure(
        await admin.get(`/api/data/users?${range(H1, H0)}`),
        400,
        "start_timestamp must not be after end_timestamp",
      );
    });
  });

  test("the accumulator writes by itself once the flush interval has passed", async () => {
    const rollup = new QuotaRollup(r.s.ctx.db);
    rollup.now = () => H0 - HOUR;
    rollup.add({ userId: 424242, username: "timer", model: "roll-t", quota: 3, tokens: 4 }, 30);
    await Bun.sleep(300);
    const row = await r.s.ctx.db.k
      .selectFrom("quota_data")
      .selectAll()
      .where("user_id", "=", 424242)
      .executeTakeFirst();
    expect(row).toMatchObject({
      username: "timer",
      model_name: "roll-t",
      created_at: H0 - HOUR,
      count: 1,
      quota: 3,
      token_used: 4,
    });
    await rollup.close();
  });

  test("a graceful stop writes what is still held", async () => {
    at(H1 + 300);
    await call(otherKey, "roll-b", 2, 2);
    await r.s.ctx.relay.close();
    const bucket = (await stored()).find((row) => row.user_id === other.userId && row.created_at === H1);
    expect(bucket).toMatchObject({ model_name: "roll-b", count: 2, quota: 32, token_used: 64 });
  });
});
