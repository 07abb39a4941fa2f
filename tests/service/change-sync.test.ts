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

describe.each(variants)(
  "a change made by another process reaches this one within a second (%s, through the %s)",
  (dialect, via) => {
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
      await cli.db.k
        .insertInto("channels")
        .values({ type: 1, name: "c", key: "k", models: "m1", created_time: 1 })
        .execute();
      const id = (await cli.db.k.selectFrom("channels").select("id").executeTakeFirstOrThrow()).id;
      await cli.db.k
        .insertInto("abilities")
        .values({ group: "default", model: "m1", channel_id: id, enabled: 1, priority: 0, weight: 0 })
        .execute();
      cli.changes.emit("channels");
      await within(1000, () => server.relay.routes.hasRoute("default", "m1"));
      await setChannelStatus(cli, id, 2);
      expect(await within(1000, () => !server.relay.routes.hasRoute("default", "m1"))).toBeLessThan(1000);
    });

    test("a user's balance, in the balance book", async () => {
      await cli.db.k
        .insertInto("users")
        .values({
          username: `u-${via}`,
          password: "x",
          aff_code: `a-${via}`,
          created_at: 1,
          email: null,
          access_token_hash: null,
          deleted_at: null,
          quota: 100,
        })
        .execute();
      const id = (
        await cli.db.k.selectFrom("users").select("id").where("username", "=", `u-${via}`).executeTakeFirstOrThrow()
      ).id;
      expect(await server.relay.book.availableOf(id)).toBe(100);
      await changeUser(cli, id, { quota: 5000 });
      expect(await within(1000, async () => (await server.relay.book.availableOf(id)) === 5000)).toBeLessThan(1000);
    });
  },
);
