import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BalanceBook } from "../../src/service/billing/book";
import { journalKey } from "../../src/service/billing/journal";
import { ChangeBus } from "../../src/service/changes";
import { useMigratedDatabase } from "../support/migrated-database";

// SQLite runs a flush's statements synchronously: one transaction for a large batch would hold every open stream
// for its whole length. (On the server databases a flush waits on the network and the event loop runs meanwhile.)
const db = useMigratedDatabase("sqlite");
const CALLS = 1000;

test("a large flush lets other work run between its slices, each slice's journal mark covering exactly what it wrote", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tollgate-flush-slices-"));
  const book = new BalanceBook(db(), new ChangeBus(), 60_000, { dir, databaseId: "db-a" });
  try {
    await flushInSlices(book, dir);
  } finally {
    await book.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function flushInSlices(book: BalanceBook, dir: string): Promise<void> {
  for (let i = 0; i < CALLS; i++)
    book.record({ user_id: 1, created_at: 1_795_000_000, type: 5, content: `call ${i}`, quota: 0 });

  const flushing = book.flush();
  const observed = new Promise<{ written: number; replayed: number }>((resolve) =>
    setImmediate(async () => {
      const written = await db()
        .k.selectFrom("logs")
        .select(db().k.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      const [file] = readdirSync(dir);
      const mark = await db()
        .k.selectFrom("internals")
        .select("value")
        .where("key", "=", journalKey(file!))
        .executeTakeFirst();
      // What a start after a crash now would replay: the journal's lines after the recorded mark.
      const replayed = readFileSync(join(dir, file!))
        .subarray(Number(mark?.value ?? 0))
        .toString()
        .split("\n")
        .filter((line) => line.startsWith("["));
      resolve({ written: Number(written.n), replayed: replayed.length });
    }),
  );
  await flushing;
  const between = await observed;
  expect(between.written).toBeGreaterThan(0);
  expect(between.written).toBeLessThan(CALLS);
  // Nothing written is replayed again, nothing unwritten is lost.
  expect(between.written + between.replayed).toBe(CALLS);
  const logs = await db().k.selectFrom("logs").select(db().k.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  expect(Number(logs.n)).toBe(CALLS);
}
