import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import type { Db } from "../../src/db/connect";
import { migrate } from "../../src/db/migrations";
import { ApiClient } from "../support/client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { startOwnRedis, type OwnRedis } from "../support/redis-server";
import { killServe, SERVE_ROOT_PASSWORD, startServeProcess, type ServeProcess } from "../support/serve-process";

const INSTANCES = 3;
const CALLS = 100;
/** The calls a balance is made to pay for. */
const AFFORDABLE = 10;
/** Answers after this long, so calls are in flight together on every instance (and when Redis stops). */
const MODEL = "fake-slow-150ms";
const MAX_TOKENS = 8;

async function until(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await Bun.sleep(50)) if (await check()) return true;
  return check();
}

describe.each(["postgres", "mysql"] as const)(
  "three instances on %s sharing Redis: a balance is spent once, however many instances take calls",
  (dialect) => {
    let database: TestDatabase;
    let db: Db;
    let redis: OwnRedis;
    let fake: FakeUpstream;
    let dir: string;
    const servers: ServeProcess[] = [];
    let root: ApiClient;
    /** What one call costs, measured by a first call. */
    let cost = 0;
    let users = 0;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      db = database.open();
      // Migrated here: a first start that migrates MariaDB may take longer than a start is given.
      await migrate(db);
      redis = await startOwnRedis();
      fake = startFakeUpstream();
      dir = mkdtempSync(join(tmpdir(), "tollgate-instances-"));
      const env = {
        SQL_DSN: database.dsn,
        REDIS_CONN_STRING: redis.url,
        SESSION_SECRET: `instances-${Math.random()}`,
        BILLING_JOURNAL_DIR: join(dir, "journal"),
      };
      // The first creates the schema and root; the others start on it.
      for (let i = 0; i < INSTANCES; i++) servers.push(await startServeProcess(dir, join(dir, "unused.db"), env));
      root = new ApiClient(servers[0]!.url);
      await root.login("root", SERVE_ROOT_PASSWORD);
      // A price per call: what a call holds is exactly what it costs.
      await root.put("/api/option/", { key: "ModelPrice", value: JSON.stringify({ [MODEL]: 0.001 }) });
      await root.post("/api/channel/", {
        type: 1,
        name: "fake",
        key: "sk-x",
        base_url: fake.url,
        models: MODEL,
        group: "default",
      });
      const rich = await newUser(1_000_000);
      const one = await call(servers[0]!, await tokenOf(rich, null));
      expect(one).toBe(true);
      const used = async () =>
        Number(
          (await db.k.selectFrom("users").select("used_quota").where("id", "=", rich.id).executeTakeFirstOrThrow())
            .used_quota,
        );
      expect(await until(5_000, async () => (await used()) > 0)).toBe(true);
      cost = await used();
    }, 120_000);

    afterAll(async () => {
      for (const server of servers) killServe(server);
      await fake.stop();
      await redis.stop();
      await db.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    async function newUser(quota: number): Promise<{ id: number; client: ApiClient }> {
      const username = `payer${++users}`;
      expect(
        (await root.post("/api/user/", { username, password: "payer-pass-1", display_name: username })).body,
      ).toMatchObject({ success: true });
      const { id } = await db.k
        .selectFrom("users")
        .select("id")
        .where("username", "=", username)
        .executeTakeFirstOrThrow();
      expect((await root.put("/api/user/", { id, quota })).body).toMatchObject({ success: true });
      const client = new ApiClient(servers[0]!.url);
      await client.login(username, "payer-pass-1");
      return { id: Number(id), client };
    }

    /** A key of the user's: limited to `remain`, or unlimited when null. */
    async function tokenOf(user: { client: ApiClient }, remain: number | null): Promise<string> {
      const reply = await user.client.post("/api/token/", {
        name: "k",
        ...(remain === null ? { unlimited_quota: true } : { remain_quota: remain }),
      });
      return reply.body.data.keys[0];
    }

    /** One chat call through `server` with the official client; whether it was answered. */
    async function call(server: ServeProcess, key: string): Promise<boolean> {
      const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
      try {
        await client.chat.completions.create({
          model: MODEL,
          max_tokens: MAX_TOKENS,
          messages: [{ role: "user", content: "hi" }],
        });
        return true;
      } catch (error) {
        if (!(error instanceof OpenAI.APIError) || error.status !== 403) throw error;
        return false;
      }
    }

    /** `CALLS` calls at once, spread over the instances in turn; how many were answered. */
    async function concurrentCalls(key: string, meanwhile?: () => Promise<void>): Promise<number> {
      const calls = Array.from({ length: CALLS }, (_, i) => call(servers[i % INSTANCES]!, key));
      await meanwhile?.();
      return (await Promise.all(calls)).filter(Boolean).length;
    }

    /** The user's stored balance and the sum of its call log rows, once every answered call is logged. */
    async function books(userId: number, answered: number) {
      const logs = () =>
        db.k
          .selectFrom("logs")
          .select((eb) => [eb.fn.countAll<number>().as("rows"), eb.fn.sum<number>("quota").as("quota")])
          .where("user_id", "=", userId)
          .where("type", "=", 2)
          .executeTakeFirstOrThrow();
      await until(5_000, async () => Number((await logs()).rows) >= answered);
      const user = await db.k
        .selectFrom("users")
        .select(["quota", "used_quota", "request_count"])
        .where("id", "=", userId)
        .executeTakeFirstOrThrow();
      const logged = await logs();
      return { ...user, logRows: Number(logged.rows), logged: Number(logged.quota ?? 0) };
    }

    /** Every instance gives its leases back once idle: nothing stays leased, no lease row is left. */
    async function leasesReturned(userId: number, tokenId?: number): Promise<boolean> {
      const leased = async () => {
        const user = await db.k.selectFrom("users").select("leased_quota").where("id", "=", userId).executeTakeFirst();
        const token = tokenId
          ? await db.k.selectFrom("tokens").select("leased_quota").where("id", "=", tokenId).executeTakeFirst()
          : undefined;
        const rows = await db.k.selectFrom("quota_leases").select("holder").execute();
        return Number(user?.leased_quota) === 0 && Number(token?.leased_quota ?? 0) === 0 && rows.length === 0;
      };
      return until(8_000, leased);
    }

    test(`${CALLS} concurrent calls on a user's balance for ${AFFORDABLE}, over ${INSTANCES} instances: at most ${AFFORDABLE} answered, the balance stays ≥ 0, the log rows are the balance's movement`, async () => {
      const start = AFFORDABLE * cost;
      const payer = await newUser(start);
      const answered = await concurrentCalls(await tokenOf(payer, null));
      expect(answered).toBeGreaterThan(0);
      expect(answered).toBeLessThanOrEqual(AFFORDABLE);
      const stored = await books(payer.id, answered);
      expect(stored.quota).toBeGreaterThanOrEqual(0);
      expect(stored.logRows).toBe(answered);
      expect(start - stored.quota).toBe(stored.logged);
      expect(stored.used_quota).toBe(stored.logged);
      expect(stored.request_count).toBe(answered);
      expect(await leasesReturned(payer.id)).toBe(true);
    }, 60_000);

    test(`${CALLS} concurrent calls on a key's quota for ${AFFORDABLE}: at most ${AFFORDABLE} answered, the quota stays ≥ 0 and moves by what the log rows bill`, async () => {
      const payer = await newUser(1_000_000);
      const start = AFFORDABLE * cost;
      const key = await tokenOf(payer, start);
      const answered = await concurrentCalls(key);
      expect(answered).toBeGreaterThan(0);
      expect(answered).toBeLessThanOrEqual(AFFORDABLE);
      const stored = await books(payer.id, answered);
      const token = await db.k
        .selectFrom("tokens")
        .select(["id", "remain_quota", "used_quota"])
        .where("user_id", "=", payer.id)
        .executeTakeFirstOrThrow();
      expect(token.remain_quota).toBeGreaterThanOrEqual(0);
      expect(stored.logRows).toBe(answered);
      expect(start - token.remain_quota).toBe(stored.logged);
      expect(token.used_quota).toBe(stored.logged);
      expect(1_000_000 - stored.quota).toBe(stored.logged);
      expect(await leasesReturned(payer.id, Number(token.id))).toBe(true);
    }, 60_000);

    test(`with Redis stopped while ${CALLS} concurrent calls run, and then for 30 calls one after another: each balance for ${AFFORDABLE} pays at most ${AFFORDABLE} calls, stays ≥ 0 and moves by its log rows`, async () => {
      const start = AFFORDABLE * cost;
      const during = await newUser(start);
      const after = await newUser(start);
      const duringKey = await tokenOf(during, null);
      const afterKey = await tokenOf(after, null);
      const answered = await concurrentCalls(duringKey, async () => {
        await Bun.sleep(60);
        await redis.stop();
      });
      expect(answered).toBeLessThanOrEqual(AFFORDABLE);
      let sequential = 0;
      for (let i = 0; i < 30; i++) if (await call(servers[i % INSTANCES]!, afterKey)) sequential++;
      expect(sequential).toBeGreaterThan(0);
      expect(sequential).toBeLessThanOrEqual(AFFORDABLE);
      for (const [user, count] of [
        [during, answered],
        [after, sequential],
      ] as const) {
        const stored = await books(user.id, count);
        expect(stored.quota).toBeGreaterThanOrEqual(0);
        expect(stored.logRows).toBe(count);
        expect(start - stored.quota).toBe(stored.logged);
        // Leases need no Redis: idle ones still go back.
        expect(await leasesReturned(user.id)).toBe(true);
      }
    }, 90_000);
  },
);
