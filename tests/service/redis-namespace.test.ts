import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import type { ServiceContext } from "../../src/service/context";
import { keyedHash } from "../../src/service/crypto";
import { redisChannel, redisDatabaseIndex, redisPrefix } from "../../src/service/redis/namespace";
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from "../support/databases";
import { SHARED_SECRET } from "../support/instances";
import { openTestContext } from "../support/server";

/** Resolves true once `topic` is delivered on `ctx`, false after `ms`. */
function hears(ctx: ServiceContext, ms = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      off();
      resolve(false);
    }, ms);
    const off = ctx.changes.on("options", () => {
      clearTimeout(timer);
      off();
      resolve(true);
    });
  });
}

const onIndex = (index: number) => `${TEST_REDIS_URL.replace(/\/\d*$/, "")}/${index}`;

describe("the Redis namespace of a deployment", () => {
  test("the default prefix comes from the database's identity; REDIS_PREFIX replaces it", () => {
    expect(redisPrefix({ redisPrefix: "" }, "db-one")).toBe(redisPrefix({ redisPrefix: "" }, "db-one"));
    expect(redisPrefix({ redisPrefix: "" }, "db-one")).not.toBe(redisPrefix({ redisPrefix: "" }, "db-two"));
    expect(redisPrefix({ redisPrefix: "" }, "db-one")).toMatch(/^tollgate:[0-9a-f]{16}:$/);
    expect(redisPrefix({ redisPrefix: "acme:" }, "db-one")).toBe("acme:");
  });

  test("a channel names the database index of the connection string", () => {
    expect(redisDatabaseIndex("redis://h:6379")).toBe(0);
    expect(redisDatabaseIndex("redis://:pw@h:6379/3")).toBe(3);
    expect(redisChannel("acme:", "redis://h:6379/3", "changes")).toBe("acme:db3:changes");
  });
});

describe("instances sharing one Redis", () => {
  let database: TestDatabase;
  let other: TestDatabase;
  const opened: ServiceContext[] = [];
  // Instances of one deployment share its secret key: two opened at once on a fresh database, each with a key file of
  // its own, raced, and the one that found the other's key check refused to start.
  const open = async (over: TestDatabase, env: Record<string, string>) => {
    const ctx = await openTestContext(over, { SESSION_SECRET: SHARED_SECRET, ...env });
    opened.push(ctx);
    return ctx;
  };
  beforeAll(async () => {
    [database, other] = await Promise.all([createTestDatabase("postgres"), createTestDatabase("postgres")]);
  });
  afterAll(async () => {
    for (const ctx of opened) await ctx.close();
    await Promise.all([database.drop(), other.drop()]);
  });

  test("of one database hear each other's changes; another deployment's database does not", async () => {
    const env = { REDIS_CONN_STRING: TEST_REDIS_URL };
    const [here, there, neighbour] = await Promise.all([open(database, env), open(database, env), open(other, env)]);
    expect(here.redis!.prefix).toBe(there.redis!.prefix);
    expect(neighbour.redis!.prefix).not.toBe(here.redis!.prefix);
    const heard = [hears(there), hears(neighbour)];
    here.changes.emit("options");
    expect(await Promise.all(heard)).toEqual([true, false]);
  });

  test("with the same REDIS_PREFIX on other database indexes, neither hears the other and keys stay on their index", async () => {
    const prefix = `tollgate-test:${crypto.randomUUID()}:`;
    const one = await open(database, { REDIS_CONN_STRING: onIndex(1), REDIS_PREFIX: prefix });
    const two = await open(other, { REDIS_CONN_STRING: onIndex(2), REDIS_PREFIX: prefix });
    expect(one.redis!.prefix).toBe(prefix);
    const heard = hears(two);
    one.changes.emit("options");
    expect(await heard).toBe(false);

    const id = await one.sessions.create(7);
    expect(await one.sessions.userOf(id)).toBe(7);
    const key = `${prefix}session:${keyedHash(one.secret, id)}`;
    const [indexOne, indexTwo] = [new RedisClient(onIndex(1)), new RedisClient(onIndex(2))];
    expect(await indexOne.get(key)).toBe("7");
    expect(await indexTwo.get(key)).toBeNull();
    indexOne.close();
    indexTwo.close();
  });
});
