import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BalanceBook } from "../../src/service/billing/book";
import { ChargeJournal } from "../../src/service/billing/journal";
import { ChangeBus } from "../../src/service/changes";
import { DIALECTS } from "../support/databases";
import { useMigratedDatabase } from "../support/migrated-database";

/** A pid no process has (above Linux's pid limit). */
const GONE = 4_194_400;

describe.each(DIALECTS)("on %s, a journal orphaned while the process runs", (dialect) => {
  const db = useMigratedDatabase(dialect);
  let dir: string;
  let book: BalanceBook | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "tollgate-recovery-"));
  });
  afterEach(async () => {
    await book?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("is written by the recovery timer, not only at the next start", async () => {
    await db()
      .k.insertInto("users")
      .values({
        username: "orphaned",
        password: "x",
        aff_code: "a-orphaned",
        created_at: 1,
        email: null,
        access_token_hash: null,
        deleted_at: null,
        quota: 1_000,
      })
      .execute();
    const { id: userId } = await db()
      .k.selectFrom("users")
      .select("id")
      .where("username", "=", "orphaned")
      .executeTakeFirstOrThrow();
    book = new BalanceBook(db(), new ChangeBus(), 50, { dir, databaseId: "db-a", recoverEveryMs: 100 });
    expect(await book.recover()).toBe(0);
    expect(await book.availableOf(userId)).toBe(1_000);

    // Another writer's journal, its writer dying after this process started.
    const journal = new ChargeJournal(dir, "db-a");
    journal.append({
      userId,
      tokenId: 0,
      tokenUnlimited: true,
      channelId: 0,
      quota: 70,
      debit: true,
      log: { user_id: userId, created_at: 1_795_000_000, type: 2, content: "orphaned call", quota: 70 },
    });
    journal.close(false);
    renameSync(join(dir, journal.name), join(dir, `${GONE}-orphan.jnl`));

    // The file goes once its charges are written.
    for (let i = 0; i < 100 && readdirSync(dir).length > 0; i++) await Bun.sleep(50);
    expect(readdirSync(dir)).toEqual([]);
    const user = await db()
      .k.selectFrom("users")
      .select(["quota", "used_quota", "request_count"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ quota: 930, used_quota: 70, request_count: 1 });
    const logs = await db().k.selectFrom("logs").select(["quota", "content"]).where("user_id", "=", userId).execute();
    expect(logs).toEqual([{ quota: 70, content: "orphaned call" }]);
    // The balance the relay spends against has the recovered charge.
    expect(await book.availableOf(userId)).toBe(930);
  });
});
