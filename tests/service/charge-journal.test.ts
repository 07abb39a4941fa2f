import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Charge } from "../../src/service/billing/charges";
import { ChargeJournal, ensureJournalDir, orphanJournals } from "../../src/service/billing/journal";
import { thisWriter, writerLabel } from "../../src/service/billing/writer";

const charge = (quota: number): Charge => ({
  userId: 1,
  tokenId: 2,
  tokenUnlimited: false,
  channelId: 3,
  quota,
  debit: true,
  log: null,
});
/** A pid no process has (above Linux's pid limit). */
const GONE = 4_194_400;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tollgate-journal-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the charge journal", () => {
  test("a dead process's journal is replayed from the recorded offset; a torn last line is left out", () => {
    const header = `${JSON.stringify({ database: "db-a" })}\n`;
    const first = `${JSON.stringify(charge(10))}\n`;
    writeFileSync(join(dir, `${GONE}-x.jnl`), `${header + first}${JSON.stringify(charge(20))}\n{"userId":1,"quo`);
    const [orphan, ...rest] = orphanJournals(dir, "db-a");
    expect(rest).toEqual([]);
    expect(orphan!.charges(0).map((c) => c.quota)).toEqual([10, 20]);
    expect(orphan!.charges(Buffer.byteLength(header + first)).map((c) => c.quota)).toEqual([20]);
    orphan!.remove();
    expect(readdirSync(dir)).toEqual([]);
  });

  test("what a journal writes is read back whole, log rows included, once its writer is gone", () => {
    const log = {
      user_id: 1,
      created_at: 1_795_000_000,
      type: 2,
      content: "",
      username: "ann",
      token_name: 'key "one"',
      token_id: 2,
      model_name: "gpt-4o",
      quota: 42,
      prompt_tokens: 30,
      completion_tokens: 12,
      use_time: 1,
      is_stream: 1,
      channel_id: 3,
      group: "default",
      ip: "10.0.0.1",
      request_id: "20261121000000abcdefghijkl",
      other: JSON.stringify({ frt: 5, note: "line\nbreak" }),
    };
    const written: Charge[] = [
      { ...charge(42), log },
      charge(7),
      {
        ...charge(0),
        debit: false,
        tokenUnlimited: true,
        log: { user_id: 1, created_at: 1_795_000_001, type: 5, content: "failed" },
      },
    ];
    const journal = new ChargeJournal(dir, "db-a");
    for (const c of written) journal.append(c);
    journal.close(false);
    renameSync(join(dir, journal.name), join(dir, `${GONE}-w.jnl`));
    const [orphan] = orphanJournals(dir, "db-a");
    expect(orphan!.charges(0)).toEqual(written);
    orphan!.remove();
  });

  test("a journal of another database, or of this process, is left alone", () => {
    writeFileSync(
      join(dir, `${GONE}-y.jnl`),
      `${JSON.stringify({ database: "db-b" })}\n${JSON.stringify(charge(5))}\n`,
    );
    const own = new ChargeJournal(dir, "db-a");
    own.append(charge(7));
    expect(orphanJournals(dir, "db-a")).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([`${GONE}-y.jnl`, own.name].sort());
    own.close(true);
    expect(existsSync(join(dir, own.name))).toBe(false);
  });

  test("a claimed journal goes back when its recovery fails, for the next start", () => {
    writeFileSync(
      join(dir, `${GONE}-z.jnl`),
      `${JSON.stringify({ database: "db-a" })}\n${JSON.stringify(charge(5))}\n`,
    );
    const [orphan] = orphanJournals(dir, "db-a");
    expect(readdirSync(dir)).toEqual([`${GONE}-z.jnl.recovering-${writerLabel(thisWriter)}`]);
    orphan!.release();
    expect(readdirSync(dir)).toEqual([`${GONE}-z.jnl`]);
  });
});

test("a journal folder that cannot be written stops the start with a message naming BILLING_JOURNAL_DIR", () => {
  const file = join(dir, "not-a-folder");
  writeFileSync(file, "");
  expect(() => ensureJournalDir(join(file, "journal"))).toThrow(
    /billing journal folder .* cannot be written \(ENOTDIR\); set BILLING_JOURNAL_DIR/,
  );
});

test("a recovery that a dead process had claimed but not finished is taken over; one in progress here is not taken twice", () => {
  writeFileSync(
    join(dir, `${GONE}-w.jnl.recovering-${GONE + 1}`),
    `${JSON.stringify({ database: "db-a" })}\n${JSON.stringify(charge(9))}\n`,
  );
  const [orphan, ...rest] = orphanJournals(dir, "db-a");
  expect(rest).toEqual([]);
  expect(orphan!.name).toBe(`${GONE}-w.jnl`);
  expect(orphan!.charges(0).map((c) => c.quota)).toEqual([9]);
  expect(orphanJournals(dir, "db-a")).toEqual([]);
  orphan!.remove();
  expect(readdirSync(dir)).toEqual([]);
});
