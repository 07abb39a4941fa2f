import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setChannelStatus } from "../../src/service/channels/status";
import type { ServiceContext } from "../../src/service/context";
import { changeUser } from "../../src/service/users/directory";
import { createTestDatabase, DIALECTS, TEST_REDIS_URL, type TestDatabase } from "../support/databases";
import { openTestContext } from "../support/server";

async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await Bun.sleep(25);
  }
  throw new Error(`not seen within ${ms} ms`);
}

const variants = [...DIALECTS.map((d) => [d, "database"] as const), ["sqlite", "redis"] as const];

describe.each(variants)("a change made by another process reaches this one within a second (%s, through the %s)", (dialect, via) => {
  let database: TestDatabase;
  let server: ServiceContext;
  let cli: ServiceContext;
  const env: Record<string, string> = via === "redis" ? { REDIS_CONN_STRING: TEST_REDIS_URL } : {};
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await openTestContext(database, env);
    cli = await openTestContext(database, env);
  });
  afterAll(async () => {
    await cli.close();
    await server.close();
    await database.drop();
  });

  test("an option", async () => {
    await cli.options.set("SystemName", `renamed-${via}`);
    expect(await within(1000, () => server.options.raw("SystemName") === `renamed-${via}`)).toBeLessThan(1000);
  });

  test("a channel status, in the routing table", async () => {
    await cli.db.k.insertInto("channels").values({ type: 1, name: "c", key: "k", models: "m1", created_time: 1 }).execute();
    const id = (await cli.db.k.selectFrom("channels").select("id").executeTakeFirstOrThrow()).id;
    await cli.db.k.insertInto("abilities").values({ group: "default", model: "m1", channel_id: id, enabled: 1, priority: 0, weight: 0 }).execute();
    cli.changes.emit("channels");
    await within(1000, () => server.relay.routes.hasRoute("default", "m1"));
    await setChannelStatus(cli, id, 2);
    expect(await within(1000, () => !server.relay.routes.hasRoute("default", "m1"))).toBeLessThan(1000);
  });

  test("a user's balance, in the balance book", async () => {
    await cli.db.k
      .insertInto("users")
      .values({ username: `u-${via}`, password: "x", aff_code: `a-${via}`, created_at: 1, email: null, access_token_hash: null, deleted_at: null, quota: 100 })
      .execute();
    const id = (await cli.db.k.selectFrom("users").select("id").where("username", "=", `u-${via}`).executeTakeFirstOrThrow()).id;
    expect(await server.relay.book.availableOf(id)).toBe(100);
    await changeUser(cli, id, { quota: 5000 });
    expect(await within(1000, async () => (await server.relay.book.availableOf(id)) === 5000)).toBeLessThan(1000);
  });
});

describe.each(DIALECTS.filter((d) => d !== "sqlite"))("two instances sharing a %s database and Redis", (dialect) => {
  let database: TestDatabase;
  let a: ServiceContext;
  let b: ServiceContext;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    a = await openTestContext(database, { REDIS_CONN_STRING: TEST_REDIS_URL });
    b = await openTestContext(database, { REDIS_CONN_STRING: TEST_REDIS_URL });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await database.drop();
  });

  test("what one instance charges a user and a token, the other spends against within a second", async () => {
    await a.db.k
      .insertInto("users")
      .values({ username: "shared", password: "x", aff_code: "a-shared", created_at: 1, email: null, access_token_hash: null, deleted_at: null, quota: 10_000 })
      .execute();
    const userId = (await a.db.k.selectFrom("users").select("id").where("username", "=", "shared").executeTakeFirstOrThrow()).id;
    await a.db.k.insertInto("tokens").values({ user_id: userId, key_hash: "h-shared", key_sealed: "", key_masked: "", name: "t", created_time: 1, remain_quota: 2_000, deleted_at: null }).execute();
    const tokenId = (await a.db.k.selectFrom("tokens").select("id").where("key_hash", "=", "h-shared").executeTakeFirstOrThrow()).id;
    const token = { id: tokenId, unlimited: false };
    // Instance a has both balances in memory before b spends.
    a.relay.book.release(await a.relay.book.reserve(userId, token, 1));
    expect(await a.relay.book.availableOf(userId)).toBe(10_000);

    const held = await b.relay.book.reserve(userId, token, 1_500);
    b.relay.book.settle(held, { channelId: 0, quota: 1_500, log: null });
    await b.relay.book.flush();

    expect(await within(1000, async () => (await a.relay.book.availableOf(userId)) === 8_500)).toBeLessThan(1000);
    // The token has 500 left as a sees it now: a larger hold is refused.
    await expect(async () => a.relay.book.reserve(userId, token, 600)).toThrow(/token quota is not enough/);
  });
});
