import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ChangeBus, type Amounts } from "../../src/service/changes";
import type { ServiceContext } from "../../src/service/context";
import { createTestDatabase, DIALECTS, TEST_REDIS_URL, type TestDatabase } from "../support/databases";
import { newToken, newUser } from "../support/balance-rows";
import { openTestContext } from "../support/server";

async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return;
    await Bun.sleep(20);
  }
  throw new Error(`not seen within ${ms} ms`);
}

const storedQuota = async (ctx: ServiceContext, userId: number) =>
  (await ctx.db.k.selectFrom("users").select("quota").where("id", "=", userId).executeTakeFirstOrThrow()).quota;

async function spend(
  ctx: ServiceContext,
  userId: number,
  token: { id: number; unlimited: boolean } | null,
  quota: number,
): Promise<void> {
  const held = await ctx.relay.book.reserve(userId, token, quota);
  ctx.relay.book.settle(held, { channelId: 0, quota, log: null });
}

describe.each(DIALECTS.filter((d) => d !== "sqlite"))(
  "two instances sharing a %s database and Redis: what one has settled and not yet written, the other counts",
  (dialect) => {
    let database: TestDatabase;
    let a: ServiceContext;
    /** Writes only when a test flushes it. */
    let b: ServiceContext;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      a = await openTestContext(database, { REDIS_CONN_STRING: TEST_REDIS_URL });
      b = await openTestContext(database, { REDIS_CONN_STRING: TEST_REDIS_URL, BILLING_FLUSH_MS: "3600000" });
    });
    afterAll(async () => {
      await b.close();
      await a.close();
      await database.drop();
    });

    test("what one instance charges and writes for a user and a token, the other spends against within a second", async () => {
      const userId = await newUser(a, 10_000);
      const token = await newToken(a, userId, 2_000);
      // Instance a has both balances in memory before b spends.
      a.relay.book.release(await a.relay.book.reserve(userId, token, 1));
      expect(await a.relay.book.availableOf(userId)).toBe(10_000);

      await spend(b, userId, token, 1_500);
      await b.relay.book.flush();

      await within(1000, async () => (await a.relay.book.availableOf(userId)) === 8_500);
      // The token has 500 left as a sees it now: a larger hold is refused.
      await expect(async () => a.relay.book.reserve(userId, token, 600)).toThrow(/token quota is not enough/);
    });

    test("a charge settled on one instance lowers the other's balance before it is written, and counts once after", async () => {
      const userId = await newUser(a, 10_000);
      expect(await a.relay.book.availableOf(userId)).toBe(10_000);

      await spend(b, userId, null, 1_500);
      await within(1000, async () => (await a.relay.book.availableOf(userId)) === 8_500);
      expect(await storedQuota(a, userId)).toBe(10_000);

      await b.relay.book.flush();
      await spend(a, userId, null, 1_000);
      await a.relay.book.flush();
      await Bun.sleep(300);
      expect(await storedQuota(a, userId)).toBe(7_500);
      expect(await a.relay.book.availableOf(userId)).toBe(7_500);
      expect(await b.relay.book.availableOf(userId)).toBe(7_500);
    });

    test("an account the other instance loads only after hearing of the charge counts it too", async () => {
      const held = await newUser(a, 10_000);
      const notHeld = await newUser(a, 10_000);
      expect(await a.relay.book.availableOf(held)).toBe(10_000);

      // Settled in one turn, so both charges travel in one batch: once a has heard of one, it has heard of the other.
      const holds = [await b.relay.book.reserve(held, null, 100), await b.relay.book.reserve(notHeld, null, 1_500)];
      for (const hold of holds) b.relay.book.settle(hold, { channelId: 0, quota: hold.amount, log: null });
      await within(1000, async () => (await a.relay.book.availableOf(held)) === 9_900);
      expect(await a.relay.book.availableOf(notHeld)).toBe(8_500);

      await b.relay.book.flush();
      await Bun.sleep(300);
      expect(await a.relay.book.availableOf(notHeld)).toBe(8_500);
      expect(await storedQuota(a, notHeld)).toBe(8_500);
    });

    test("a call that only the other instance's unwritten charges make unaffordable is refused, for the user and for the token", async () => {
      const poor = await newUser(a, 1_000);
      const rich = await newUser(a, 10_000);
      const token = await newToken(a, rich, 1_000);
      a.relay.book.release(await a.relay.book.reserve(rich, token, 1));

      await spend(b, poor, null, 800);
      await spend(b, rich, token, 800);
      await within(
        1000,
        async () => (await a.relay.book.availableOf(poor)) === 200 && (await a.relay.book.availableOf(rich)) === 9_200,
      );
      await expect(a.relay.book.reserve(poor, null, 300)).rejects.toThrow(/user quota is not enough: 200 available/);
      await expect(a.relay.book.reserve(rich, token, 300)).rejects.toThrow(/token quota is not enough: 200 available/);
      a.relay.book.release(await a.relay.book.reserve(rich, token, 200));

      await b.relay.book.flush();
      await Bun.sleep(300);
      await expect(a.relay.book.reserve(poor, null, 300)).rejects.toThrow(/user quota is not enough: 200 available/);
      await expect(a.relay.book.reserve(rich, token, 300)).rejects.toThrow(/token quota is not enough: 200 available/);
    });

    test("while the other instance writes its charges, calls here never wait for a re-read of the balance", async () => {
      const userId = await newUser(a, 10_000);
      a.relay.book.release(await a.relay.book.reserve(userId, null, 1));
      await spend(b, userId, null, 1_500);
      await b.relay.book.flush();
      const until = Date.now() + 500;
      while (Date.now() < until) {
        const held = a.relay.book.reserveAtOnce(userId, null, 1);
        expect(held).toBeDefined();
        a.relay.book.release(held!);
        await Bun.sleep(10);
      }
      expect(await a.relay.book.availableOf(userId)).toBe(8_500);
    });

    describe("what another instance announces, as the balance book takes it", () => {
      const settled = (ctx: ServiceContext, seq: number, users: [number, number][]) =>
        ctx.changes.deliverSettled("ghost", seq, new Map(users), new Map());
      const written = (ctx: ServiceContext, seq: number, userId: number) => {
        ctx.changes.deliverWritten("ghost", seq);
        ctx.changes.deliver("users", userId);
      };
      const charge = (ctx: ServiceContext, userId: number, quota: number) =>
        ctx.db.k
          .updateTable("users")
          .set((eb) => ({ quota: eb("quota", "-", quota) }))
          .where("id", "=", userId)
          .execute();

      test("a reload forgets the batches announced written before it; one written but not yet announced counts twice until announced", async () => {
        const userId = await newUser(a, 10_000);
        expect(await a.relay.book.availableOf(userId)).toBe(10_000);
        settled(a, 1, [[userId, 500]]);
        settled(a, 2, [[userId, 300]]);
        expect(await a.relay.book.availableOf(userId)).toBe(9_200);

        await charge(a, userId, 500);
        written(a, 1, userId);
        expect(await a.relay.book.availableOf(userId)).toBe(9_200);

        await charge(a, userId, 300);
        a.changes.deliver("users", userId);
        expect(await a.relay.book.availableOf(userId)).toBe(8_900);
        written(a, 2, userId);
        expect(await a.relay.book.availableOf(userId)).toBe(9_200);
      });

      test("the unwritten charges of an instance that falls silent stop counting after remoteTtlMs", async () => {
        const userId = await newUser(a, 5_000);
        const notHeld = await newUser(a, 5_000);
        expect(await a.relay.book.availableOf(userId)).toBe(5_000);
        a.relay.book.remoteTtlMs = 300;
        try {
          settled(a, 3, [
            [userId, 700],
            [notHeld, 700],
          ]);
          expect(await a.relay.book.availableOf(userId)).toBe(4_300);
          await Bun.sleep(350);
          expect(await a.relay.book.availableOf(userId)).toBe(5_000);
          expect(await a.relay.book.availableOf(notHeld)).toBe(5_000);
        } finally {
          a.relay.book.remoteTtlMs = 10_000;
        }
      });

      test("a balance announced written is re-read soon after, in the background", async () => {
        const userId = await newUser(a, 10_000);
        a.relay.book.release(await a.relay.book.reserve(userId, null, 1));
        settled(a, 10, [[userId, 400]]);
        // The database also has 100 whose announcement never arrived: only a re-read shows it.
        await charge(a, userId, 500);
        a.changes.deliverWritten("ghost", 10, [userId], []);
        expect(a.relay.book.reserveAtOnce(userId, null, 1)).toBeDefined();
        await within(2000, async () => (await a.relay.book.availableOf(userId)) === 9_499);
      });
    });
  },
);

describe("the settled charges a process tells other instances", () => {
  test("are summed over a window into one numbered batch, sent at the window's end or when a flush seals it", async () => {
    const bus = new ChangeBus();
    const sent: [number, Amounts, Amounts][] = [];
    bus.settledOutbox = (seq, users, tokens) => sent.push([seq, users, tokens]);
    bus.announceSettled(1, 7, 100);
    bus.announceSettled(1, 0, 50);
    bus.announceSettled(2, 7, 10);
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    bus.announceSettled(2, 0, 1);
    expect(sent).toEqual([]);
    await Bun.sleep(100);
    expect(sent).toEqual([
      [
        1,
        new Map([
          [1, 150],
          [2, 11],
        ]),
        new Map([[7, 110]]),
      ],
    ]);

    bus.announceSettled(3, 0, 5);
    expect(bus.sealSettled()).toBe(2);
    expect(sent.at(-1)).toEqual([2, new Map([[3, 5]]), new Map()]);
    await Bun.sleep(100);
    expect(sent.length).toBe(2);
    expect(bus.sealSettled()).toBe(2);
  });

  test("nothing is kept or sent by a process no other instance listens to", () => {
    const bus = new ChangeBus();
    bus.announceSettled(1, 7, 100);
    expect(bus.sealSettled()).toBe(0);
  });
});
