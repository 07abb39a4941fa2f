import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../support/client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { answers, OwnRedis, spawnInstance, type Instance } from "../support/instances";

const ROOT_PASSWORD = "root-pass-1234";

/** A request that must not stall: answers its reply, or fails the test after `ms`. */
async function within<T>(work: Promise<T>, ms = 10_000): Promise<T> {
  const late = Bun.sleep(ms).then(() => {
    throw new Error(`no answer within ${ms} ms`);
  });
  return Promise.race([work, late]);
}

const readyz = async (instance: Instance) => {
  const response = await fetch(`${instance.url}/readyz`);
  return { status: response.status, body: (await response.json()) as { ready: boolean; redis: boolean | null } };
};

describe.each(["postgres", "mysql"] as const)("sign-in with Redis on %s: no single point of failure", (dialect) => {
  const redis = new OwnRedis();
  let database: TestDatabase;
  let instances: Instance[] = [];
  beforeAll(async () => {
    await redis.start();
    database = await createTestDatabase(dialect);
    const env = { SQL_DSN: database.dsn, REDIS_CONN_STRING: redis.url, REDIS_TIMEOUT_MS: "500" };
    instances = [spawnInstance(env)];
    expect(await answers(instances[0]!)).toBe(true);
    instances.push(spawnInstance(env));
    expect(await answers(instances[1]!)).toBe(true);
  }, 60_000);
  afterAll(async () => {
    for (const instance of instances) instance.process.kill("SIGKILL");
    await Promise.all(instances.map((i) => i.exited));
    await redis.stop();
    await database.drop();
  });

  test("sessions survive a Redis outage and a Redis restart; nothing hangs meanwhile; readiness tells", async () => {
    const [first, second] = instances as [Instance, Instance];
    const before = new ApiClient(first.url);
    expect((await before.login("root", ROOT_PASSWORD)).body.success).toBe(true);
    const elsewhere = Object.assign(new ApiClient(second.url), { cookie: before.cookie, userId: before.userId });
    expect((await elsewhere.get("/api/user/self")).body.data.username).toBe("root");
    expect((await readyz(first)).body.ready).toBe(true);

    await redis.stop();
    // The session is read from the database; a new sign-in works too (its rate limit counted per instance).
    expect((await within(before.get("/api/user/self"))).body.data.username).toBe("root");
    expect((await within(elsewhere.get("/api/user/self"))).body.data.username).toBe("root");
    const during = new ApiClient(second.url);
    expect((await within(during.login("root", ROOT_PASSWORD))).body.success).toBe(true);
    expect((await within(during.get("/api/user/self"))).body.data.username).toBe("root");
    const down = await within(readyz(first));
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ ready: false, redis: false });

    await redis.start(); // empty: every cached session is gone
    for (const client of [before, elsewhere, during])
      expect((await within(client.get("/api/user/self"))).body.data.username).toBe("root");
    let up = await readyz(first);
    for (let i = 0; i < 100 && !up.body.ready; i++) {
      await Bun.sleep(100);
      up = await readyz(first);
    }
    expect(up.status).toBe(200);

    // Subscriptions are renewed after the restart: a change made on one instance reaches the other.
    expect((await before.put("/api/option/", { key: "SystemName", value: "Renamed" })).body.success).toBe(true);
    let name = "";
    for (let i = 0; i < 50 && name !== "Renamed"; i++) {
      await Bun.sleep(100);
      name = (await elsewhere.get("/api/status")).body.data.system_name;
    }
    expect(name).toBe("Renamed");

    // A sign-out made on one instance is honoured on the other once Redis is back.
    expect((await before.get("/api/user/logout")).body.success).toBe(true);
    let after = await elsewhere.get("/api/user/self");
    for (let i = 0; i < 30 && after.status === 200; i++) {
      await Bun.sleep(100);
      after = await elsewhere.get("/api/user/self");
    }
    expect(after.status).toBe(401);
  }, 90_000);
});
