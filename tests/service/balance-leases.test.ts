import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LEASE_TTL_MS } from "../../src/service/billing/leases";
import type { ServiceContext } from "../../src/service/context";
import { newToken, newUser } from "../support/balance-rows";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases";
import { openTestContext } from "../support/server";

/** Tends a book's leases now (it notes which were used since), then as if their idle time had passed. */
async function tendIdle(ctx: ServiceContext): Promise<void> {
  await ctx.relay.book.tendLeases();
  await ctx.relay.book.tendLeases(Date.now() + 5_000);
}

describe.each(DIALECTS)("balance leases of two instances on one %s database, without Redis", (dialect) => {
  let database: TestDatabase;
  let a: ServiceContext;
  let b: ServiceContext;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    a = await openTestContext(database);
    b = await openTestContext(database, { BILLING_FLUSH_MS: "3600000" });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await database.drop();
  });

  const stored = async (userId: number) => {
    const user = await a.db.k
      .selectFrom("users")
      .select(["quota", "leased_quota"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    const leases = await a.db.k
      .selectFrom("quota_leases")
      .select(["amount"])
      .where("side", "=", 0)
      .where("account_id", "=", userId)
      .execute();
    return {
      quota: Number(user.quota),
      leased: Number(user.leased_quota),
      leases: leases.map((l) => Number(l.amount)),
    };
  };

  test("money one instance holds for a call, the other cannot hold too: each reserves only within its lease, which the database grants once", async () => {
    const userId = await newUser(a, 1_000);
    const first = await a.relay.book.reserve(userId, null, 600);
    await expect(b.relay.book.reserve(userId, null, 600)).rejects.toThrow(/user quota is not enough/);
    const second = await b.relay.book.reserve(userId, null, 400);
    await expect(b.relay.book.reserve(userId, null, 1)).rejects.toThrow(/user quota is not enough/);
    expect(await stored(userId)).toMatchObject({ quota: 1_000, leased: 1_000 });

    a.relay.book.release(first);
    await tendIdle(a);
    expect(await stored(userId)).toEqual({ quota: 1_000, leased: 400, leases: [400] });
    b.relay.book.release(await b.relay.book.reserve(userId, null, 600));
    b.relay.book.release(second);
  });

  test("a limited key's remain is leased the same way", async () => {
    const userId = await newUser(a, 100_000);
    const token = await newToken(a, userId, 1_000);
    const held = await a.relay.book.reserve(userId, token, 700);
    await expect(b.relay.book.reserve(userId, token, 700)).rejects.toThrow(/token quota is not enough/);
    a.relay.book.release(held);
    await tendIdle(a);
    b.relay.book.release(await b.relay.book.reserve(userId, token, 700));
  });

  test("settled charges leave the lease as they are written, a charge beyond the lease takes the rest from the balance, and the unleased part never moves for them", async () => {
    const userId = await newUser(a, 1_000);
    const held = await a.relay.book.reserve(userId, null, 100);
    // A lease takes a quarter of what is unleased, at least what the call needs.
    expect(await stored(userId)).toEqual({ quota: 1_000, leased: 250, leases: [250] });
    a.relay.book.settle(held, { channelId: 0, quota: 80, log: null });
    await a.relay.book.flush();
    expect(await stored(userId)).toEqual({ quota: 920, leased: 170, leases: [170] });

    const over = await a.relay.book.reserve(userId, null, 170);
    a.relay.book.settle(over, { channelId: 0, quota: 300, log: null });
    await a.relay.book.flush();
    expect(await stored(userId)).toMatchObject({ quota: 620, leased: 0 });
    await a.relay.book.tendLeases();
    expect((await stored(userId)).leases).toEqual([]);
  });

  test("a lease whose holder stopped renewing it (a dead instance) goes back after LEASE_TTL_MS", async () => {
    const userId = await newUser(a, 1_000);
    await a.db.k
      .insertInto("quota_leases")
      .values({ holder: "dead", side: 0, account_id: userId, amount: 900, renewed_at: Date.now() })
      .execute();
    await a.db.k.updateTable("users").set({ leased_quota: 900 }).where("id", "=", userId).execute();
    await expect(b.relay.book.reserve(userId, null, 200)).rejects.toThrow(/user quota is not enough/);
    await a.relay.book.tendLeases(Date.now() + LEASE_TTL_MS / 2);
    await expect(b.relay.book.reserve(userId, null, 200)).rejects.toThrow(/user quota is not enough/);
    await a.relay.book.tendLeases(Date.now() + LEASE_TTL_MS + 1_000);
    expect(await stored(userId)).toMatchObject({ quota: 1_000, leased: 0 });
    b.relay.book.release(await b.relay.book.reserve(userId, null, 200));
  });

  test("a graceful stop gives the instance's leases back", async () => {
    const userId = await newUser(a, 1_000);
    const c = await openTestContext(database);
    c.relay.book.release(await c.relay.book.reserve(userId, null, 300));
    expect((await stored(userId)).leased).toBe(300);
    await c.close();
    expect(await stored(userId)).toEqual({ quota: 1_000, leased: 0, leases: [] });
  });
});
