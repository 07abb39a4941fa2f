import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/service/config";
import type { ServiceContext } from "../../src/service/context";
import { keyedHash } from "../../src/service/crypto";
import { createTestDatabase, DIALECTS, TEST_REDIS_URL, type TestDatabase } from "../support/databases";
import { countRows } from "../support/rows";
import { openTestContext } from "../support/server";

const REDIS = { REDIS_CONN_STRING: TEST_REDIS_URL, SESSION_TTL_SECONDS: "600" };
const STORES: [string, Record<string, string>][] = [
  ["database", {}],
  ["Redis", REDIS],
];

/** Polls until `probe` answers `expected` or `ms` pass; answers the last value (instances may cache for a second). */
async function settles<T>(probe: () => Promise<T>, expected: T, ms = 1500): Promise<T> {
  const until = Date.now() + ms;
  let value = await probe();
  while (value !== expected && Date.now() < until) {
    await Bun.sleep(50);
    value = await probe();
  }
  return value;
}

describe.each(DIALECTS)("sessions on %s", (dialect) => {
  /** The test database, and a neighbour: another deployment's. */
  let database: TestDatabase;
  let neighbour: TestDatabase;
  const opened: ServiceContext[] = [];
  /** One gateway instance over the test database (or the neighbour's). */
  const instance = async (env: Record<string, string> = {}, over = database) => {
    const ctx = await openTestContext(over, env);
    opened.push(ctx);
    return ctx;
  };
  beforeAll(async () => {
    [database, neighbour] = await Promise.all([createTestDatabase(dialect), createTestDatabase(dialect)]);
  });
  afterAll(async () => {
    for (const ctx of opened) await ctx.close();
    await Promise.all([database.drop(), neighbour.drop()]);
  });

  describe.each(STORES)("kept in the %s", (_store, env) => {
    /** Two instances sharing the store. */
    let first: ServiceContext;
    let second: ServiceContext;
    beforeAll(async () => {
      first = await instance(env);
      second = await instance(env);
    });

    test("a session names its user until it is revoked", async () => {
      const { sessions } = first;
      const id = await sessions.create(41);
      expect(id).toMatch(/^[0-9A-Za-z]{43}$/);
      expect(await sessions.userOf(id)).toBe(41);
      expect(await sessions.userOf("A".repeat(43))).toBeUndefined();
      await sessions.revoke(id);
      expect(await sessions.userOf(id)).toBeUndefined();
    });

    test("revoking all of a user's sessions leaves other users' sessions alone", async () => {
      const { sessions } = first;
      const mine = [await sessions.create(42), await sessions.create(42)];
      const theirs = await sessions.create(43);
      await sessions.revokeAllOf(42);
      for (const id of mine) expect(await sessions.userOf(id)).toBeUndefined();
      expect(await sessions.userOf(theirs)).toBe(43);
    });

    test("another instance on the same store accepts the session and honours a revocation made elsewhere", async () => {
      const id = await first.sessions.create(44);
      expect(await second.sessions.userOf(id)).toBe(44);
      await first.sessions.revokeAllOf(44);
      expect(await settles(() => second.sessions.userOf(id), undefined)).toBeUndefined();
    });
  });

  describe("in the database", () => {
    test("only the keyed hash of a session id is stored", async () => {
      const ctx = await instance();
      const id = await ctx.sessions.create(45);
      const rows = await ctx.db.k.selectFrom("sessions").selectAll().where("user_id", "=", 45).execute();
      expect(rows.map((r) => r.id)).toEqual([keyedHash(ctx.secret, id)]);
      expect(JSON.stringify(rows)).not.toContain(id);
    });

    test("an expired session names nobody", async () => {
      const ctx = await instance();
      const id = await ctx.sessions.create(46);
      await ctx.db.k
        .updateTable("sessions")
        .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
        .where("user_id", "=", 46)
        .execute();
      expect(await ctx.sessions.userOf(id)).toBeUndefined();
    });
  });

  describe("with Redis", () => {
    test("the database keeps the record of a session, Redis a copy of it once used", async () => {
      const ctx = await instance(REDIS);
      const before = await countRows(ctx, "sessions");
      const id = await ctx.sessions.create(47);
      expect(await countRows(ctx, "sessions")).toBe(before + 1);
      expect(await ctx.sessions.userOf(id)).toBe(47);
      const cached = await ctx.redis!.client.get(`${ctx.redis!.prefix}session:${keyedHash(ctx.secret, id)}`);
      expect(cached).toBe("47");
    });

    test("a session expires with SESSION_TTL_SECONDS", async () => {
      const { sessions } = await instance({ ...REDIS, SESSION_TTL_SECONDS: "1" });
      const id = await sessions.create(48);
      expect(await sessions.userOf(id)).toBe(48);
      // Expiry is in whole seconds: gone within 2 s, and 1 s of the instance's cache.
      expect(await settles(() => sessions.userOf(id), undefined, 4000)).toBeUndefined();
    });

    test("a session made at a second's end lives its whole TTL", async () => {
      const { sessions } = await instance({ ...REDIS, SESSION_TTL_SECONDS: "1" });
      while (Date.now() % 1000 < 900) await Bun.sleep(10);
      const madeIn = Math.floor(Date.now() / 1000);
      const id = await sessions.create(49);
      while (Math.floor(Date.now() / 1000) === madeIn) await Bun.sleep(5);
      expect(await sessions.userOf(id)).toBe(49);
    });

    test("deployments sharing one Redis, each with its own database, never revoke each other's sessions", async () => {
      const here = await instance(REDIS);
      const there = await instance(REDIS, neighbour);
      const mine = await here.sessions.create(1);
      const theirs = await there.sessions.create(1);
      await here.sessions.revokeAllOf(1);
      expect(await here.sessions.userOf(mine)).toBeUndefined();
      expect(await there.sessions.userOf(theirs)).toBe(1);
      await there.sessions.revokeAllOf(1);
    });
  });

  describe("SESSION_SECRET unset: the secret is generated once and kept in the key file, not in the database", () => {
    test("a restarted instance keeps the secret, so its sessions stay valid", async () => {
      const before = await instance();
      const id = await before.sessions.create(49);
      await before.close();
      opened.splice(opened.indexOf(before), 1);
      const after = await instance();
      expect(after.secret).toBe(before.secret);
      expect(await after.sessions.userOf(id)).toBe(49);
      const stored = await after.db.k
        .selectFrom("internals")
        .select("value")
        .where("key", "=", "session_secret")
        .execute();
      expect(stored).toEqual([]);
      expect(after.secret).toMatch(/^[0-9A-Za-z]{64}$/);
      expect(after.secretKey.source).toBe(after.config.secretKeyFile);
    });

    test("another database gets a secret of its own", async () => {
      const here = await instance();
      const there = await instance({}, neighbour);
      expect(there.secret).not.toBe(here.secret);
    });
  });

  describe("SESSION_SECRET set", () => {
    test("is the secret; a start with another one than the database was encrypted with fails clearly", async () => {
      const own = await createTestDatabase(dialect);
      try {
        const configured = await instance({ SESSION_SECRET: "configured-secret-for-tests-0123456789" }, own);
        expect(configured.secret).toBe("configured-secret-for-tests-0123456789");
        expect(configured.secretKey).toEqual({ source: "SESSION_SECRET", notices: [] });
        await expect(instance({}, own)).rejects.toThrow(
          "cannot decrypt channel keys: the secret key differs from the one that encrypted them: there is no key file at",
        );
        await expect(instance({ SESSION_SECRET: "another-secret-for-tests-0123456789" }, own)).rejects.toThrow(
          "cannot decrypt channel keys: the secret key differs from the one that encrypted them (the key of SESSION_SECRET)",
        );
      } finally {
        await opened.pop()!.close();
        await own.drop();
      }
    });

    test("the placeholder 'random_string' is refused at start", () => {
      expect(() => loadConfig({ SESSION_SECRET: "random_string" })).toThrow(/random_string/);
    });
  });
});
