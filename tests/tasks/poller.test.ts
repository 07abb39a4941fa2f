import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ServiceContext } from "../../src/service/context";
import { updateTask } from "../../src/service/tasks/finish";
import { DIALECTS } from "../support/databases";
import { startFakeMidjourney, type FakeMidjourney } from "../support/fake-midjourney";
import { openTestContext } from "../support/server";
import { startRelayEnv, TOKEN_QUOTA, USER_QUOTA, type RelayEnv } from "../relay/support";
import { call, pollerOf, refundLogs } from "./support";

const SECRET = "mj-upstream-secret";
const IMAGINE = 50_000;
const LEASE = "task_poller_lease";

/** The poller's lease as if its holder had stopped renewing it long ago (an instance that died). */
const expireLease = (ctx: ServiceContext) =>
  ctx.db.k.updateTable("internals").set({ value: "dead-instance 1" }).where("key", "=", LEASE).execute();

describe.each(DIALECTS)("task poller across instances and restarts on %s", (dialect) => {
  let r: RelayEnv;
  let mj: FakeMidjourney;
  /** A second gateway instance over the same database. */
  let other: ServiceContext;

  const imagine = async (prompt: string) =>
    (await call(r, "POST", "/mj/submit/imagine", { prompt })).body.result as string;
  const taskRow = (id: string) =>
    r.s.ctx.db.k.selectFrom("midjourneys").selectAll().where("mj_id", "=", id).executeTakeFirstOrThrow();
  const balances = async () => ({ user: (await r.userRow()).quota, token: (await r.tokenRow()).remain_quota });

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    mj = startFakeMidjourney(SECRET);
    await r.addChannel({ type: 2, key: SECRET, base_url: mj.url, models: "mj_imagine" });
    other = await openTestContext(r.s.database);
  });
  afterAll(async () => {
    await other.close();
    await r.stop();
    await mj.stop();
  });

  test("two instances polling at once: one holds the lease and polls, the other waits; a stopped holder hands over", async () => {
    const a = pollerOf(r.s.ctx);
    const b = pollerOf(other);
    const id = await imagine("a shared fox");
    const fetchesBefore = mj.fetches;
    const rounds = await Promise.all([a.round(), b.round()]);
    expect(rounds.filter(Boolean)).toHaveLength(1);
    expect(mj.fetches).toBe(fetchesBefore + 1);
    const [holder, waiter] = rounds[0] ? [a, b] : [b, a];
    expect(await waiter.round()).toBe(false);
    await holder.stop();
    expect(await waiter.round()).toBe(true);
    expect(await holder.round()).toBe(false);
    await waiter.stop();
    expect((await taskRow(id)).status).toBe("IN_PROGRESS");
  });

  // Two SQLite handles in one process would wait on each other's write lock with the event loop blocked: on SQLite
  // the race is run within one instance (several instances share PostgreSQL or MySQL, DESIGN.md).
  test("a failure that two instances finish at the same moment is refunded exactly once", async () => {
    const second = dialect === "sqlite" ? r.s.ctx : other;
    const start = await balances();
    const id = await imagine("fail in a race");
    expect(await balances()).toEqual({ user: start.user - IMAGINE, token: start.token - IMAGINE });
    const before = (await refundLogs(r)).length;
    const row = await taskRow(id);
    const patch = { status: "FAILURE", fail_reason: "raced", finish_time: 1 };
    const finished = await Promise.all([
      updateTask(r.s.ctx, "midjourneys", row, patch),
      updateTask(second, "midjourneys", row, patch),
      updateTask(r.s.ctx, "midjourneys", row, patch),
    ]);
    expect(finished.filter(Boolean)).toHaveLength(1);
    expect((await refundLogs(r)).length - before).toBe(1);
    expect(await balances()).toEqual(start);
  });

  test("two instances whose lease ran out race for it: only one polls, and a failed task is refunded once", async () => {
    const start = await balances();
    const id = await imagine("fail under two pollers");
    const a = pollerOf(r.s.ctx);
    const b = pollerOf(other);
    const before = (await refundLogs(r)).length;
    for (let i = 0; i < 3; i++) {
      await expireLease(r.s.ctx);
      const rounds = await Promise.all([a.round(), b.round()]);
      expect(rounds.filter(Boolean)).toHaveLength(1);
    }
    expect((await taskRow(id)).status).toBe("FAILURE");
    expect((await refundLogs(r)).length - before).toBe(1);
    expect(await balances()).toEqual(start);
    await a.stop();
    await b.stop();
  });

  test("a restart mid-task: a new instance takes over once the dead holder's lease expires and finishes the task, billed once", async () => {
    const start = await balances();
    const ok = await imagine("survives a restart");
    const failing = await imagine("fail after a restart");
    const crashed = pollerOf(r.s.ctx);
    await crashed.round();
    expect((await taskRow(ok)).status).toBe("IN_PROGRESS");
    // The first instance dies without stopping its poller: its lease stays until it expires.
    const restarted = pollerOf(other);
    expect(await restarted.round()).toBe(false);
    await expireLease(other);
    for (let i = 0; i < 3; i++) expect(await restarted.round()).toBe(true);
    expect(await taskRow(ok)).toMatchObject({ status: "SUCCESS", quota: IMAGINE });
    expect((await taskRow(failing)).status).toBe("FAILURE");
    expect(await balances()).toEqual({ user: start.user - IMAGINE, token: start.token - IMAGINE });
    await restarted.stop();
    expect(start.user).toBeLessThanOrEqual(USER_QUOTA);
    expect(start.token).toBeLessThanOrEqual(TOKEN_QUOTA);
  });
});
