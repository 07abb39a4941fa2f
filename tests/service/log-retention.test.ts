import { describe, expect, test } from "bun:test";
import { insertLog } from "../../src/db/queries/logs";
import { removeLogsBefore, runLogRetention, scheduleLogRetention } from "../../src/service/logs/cleanup";
import { LogTotals } from "../../src/service/logs/totals";
import { DIALECTS } from "../support/databases";
import { countRows } from "../support/rows";
import { useTestServer } from "../support/server";

const DAY = 86_400;

describe.each(DIALECTS)("log cleanup, retention and totals on %s", (dialect) => {
  const s = useTestServer(dialect);
  const add = (created_at: number, user_id = 1) =>
    insertLog(s.ctx.db, { user_id, created_at, type: 4, content: `at ${created_at}` });
  const createdAts = async (below: number) =>
    (
      await s.ctx.db.k
        .selectFrom("logs")
        .select("created_at")
        .where("created_at", "<", below)
        .orderBy("created_at")
        .execute()
    ).map((row) => Number(row.created_at));

  test("cleanup deletes oldest first, a batch per statement, and only rows before the target", async () => {
    for (const at of [104, 100, 103, 101, 102, 150, 151]) await add(at);
    const batches: number[] = [];
    expect(await removeLogsBefore(s.ctx, 150, { batch: 2, onBatch: (n) => batches.push(n) })).toBe(5);
    expect(batches).toEqual([2, 2, 1]);
    expect(await createdAts(1000)).toEqual([150, 151]);
    expect(await removeLogsBefore(s.ctx, 150)).toBe(0);
    await removeLogsBefore(s.ctx, 1000);
  });

  test("LogRetentionDays 0 keeps every row; N deletes rows older than N days before now", async () => {
    const base = 10_000;
    for (const at of [base, base + 5, base + 3 * DAY + 20]) await add(at);
    expect(await runLogRetention(s.ctx, base + 3 * DAY + 10)).toBe(0);
    await s.ctx.options.set("LogRetentionDays", 3);
    expect(await runLogRetention(s.ctx, base + 3 * DAY + 10)).toBe(2);
    expect(await createdAts(base + 4 * DAY)).toEqual([base + 3 * DAY + 20]);
    await removeLogsBefore(s.ctx, base + 4 * DAY);
  });

  test("the scheduled job runs on its timer and stops when told", async () => {
    await s.ctx.options.set("LogRetentionDays", 1);
    await add(20_000);
    const stop = scheduleLogRetention(s.ctx, 60_000, 5);
    for (let i = 0; i < 100 && (await createdAts(30_000)).length > 0; i++) await Bun.sleep(20);
    stop();
    expect(await createdAts(30_000)).toEqual([]);
    await s.ctx.options.set("LogRetentionDays", 0);
  });

  describe("exact totals from checkpoints", () => {
    test("stay exact as rows are added, ids settle and cleanup deletes", async () => {
      let now = 0;
      const totals = new LogTotals(s.ctx.db, 1000, () => now);
      const ownCount = async (userId: number) =>
        Number(
          (
            await s.ctx.db.k
              .selectFrom("logs")
              .select((eb) => eb.fn.countAll().as("n"))
              .where("user_id", "=", userId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const expectExact = async () => {
        expect(await totals.count({})).toBe(await countRows(s.ctx, "logs"));
        expect(await totals.count({ userId: 7 })).toBe(await ownCount(7));
      };
      await expectExact();
      for (let step = 0; step < 4; step++) {
        for (let i = 0; i < 3; i++) await add(40_000 + step, step % 2 === 0 ? 7 : 8);
        await expectExact();
        now += 1000;
        await expectExact();
      }
      await removeLogsBefore(s.ctx, 40_002);
      await expectExact();
    });

    test("a delete that is not the cleanup's goes unseen until the generation changes (the contract)", async () => {
      const totals = new LogTotals(s.ctx.db, 0);
      await add(50_000);
      await add(50_001);
      const before = await totals.count({});
      await s.ctx.db.k.deleteFrom("logs").where("created_at", "=", 50_000).execute();
      expect(await totals.count({})).toBe(before);
      await removeLogsBefore(s.ctx, 50_002);
      expect(await totals.count({})).toBe(await countRows(s.ctx, "logs"));
    });
  });
});
