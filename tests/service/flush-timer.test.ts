import { afterEach, expect, spyOn, test } from "bun:test";
import { sql } from "kysely";
import { BalanceBook } from "../../src/service/billing/book";
import { ChangeBus } from "../../src/service/changes";
import { waitFor } from "../support/wait-for";
import { useMigratedDatabase } from "../support/migrated-database";

const db = useMigratedDatabase("sqlite");
const FLUSH_MS = 20;
const books: BalanceBook[] = [];

afterEach(async () => {
  for (const book of books.splice(0)) await book.close();
});

function newBook(): { book: BalanceBook; flushes: () => number } {
  const book = new BalanceBook(db(), new ChangeBus(), FLUSH_MS);
  books.push(book);
  const flush = spyOn(book, "flush");
  return { book, flushes: () => flush.mock.calls.length };
}

const logCount = async (content: string) =>
  Number(
    (
      await db()
        .k.selectFrom("logs")
        .select(db().k.fn.countAll<number>().as("n"))
        .where("content", "=", content)
        .executeTakeFirstOrThrow()
    ).n,
  );

const row = (content: string) => ({ user_id: 1, created_at: 1_795_000_000, type: 5, content, quota: 0 });

test("an idle book does not wake to flush; a queued charge is written once, soon after it settled", async () => {
  const { book, flushes } = newBook();
  await Bun.sleep(FLUSH_MS * 6);
  expect(flushes()).toBe(0);

  book.record(row("idle-then-one"));
  book.record(row("idle-then-one"));
  await waitFor(async () => (await logCount("idle-then-one")) === 2, 2_000);
  expect(flushes()).toBe(1);
  await Bun.sleep(FLUSH_MS * 6);
  expect(flushes()).toBe(1);
});

test("under a steady stream of charges a flush starts at most every flushMs", async () => {
  const { book, flushes } = newBook();
  const began = performance.now();
  let recorded = 0;
  while (performance.now() - began < FLUSH_MS * 10) {
    book.record(row("steady"));
    recorded++;
    await Bun.sleep(1);
  }
  await waitFor(async () => (await logCount("steady")) === recorded, 2_000);
  expect(recorded).toBeGreaterThan(20);
  expect(flushes()).toBeLessThanOrEqual(Math.ceil((performance.now() - began) / FLUSH_MS) + 1);
});

test("a flush that fails is tried again until the charges are written", async () => {
  const { book, flushes } = newBook();
  await sql`alter table logs rename to logs_away`.execute(db().k);
  const error = spyOn(console, "error").mockImplementation(() => {});
  try {
    book.record(row("after-failure"));
    await waitFor(async () => flushes() >= 2, 2_000);
    expect(error.mock.calls.some((call) => String(call[0]).includes("flush failed, will retry"))).toBe(true);
  } finally {
    await sql`alter table logs_away rename to logs`.execute(db().k);
    error.mockRestore();
  }
  await waitFor(async () => (await logCount("after-failure")) === 1, 2_000);
  expect(book.stats().queued).toBe(0);
});
