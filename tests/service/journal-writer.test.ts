import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawn } from "bun";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Charge } from "../../src/service/billing/charges";
import { ChargeJournal, orphanJournals } from "../../src/service/billing/journal";
import { spawnUnreaped, untilZombie } from "../support/unreaped";

const charge = (quota: number): Charge => ({
  userId: 1,
  tokenId: 2,
  tokenUnlimited: false,
  channelId: 3,
  quota,
  debit: true,
  log: null,
});
const journalText = () => `${JSON.stringify({ database: "db-a" })}\n${JSON.stringify(charge(5))}\n`;
const startTimeOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]!.split(" ")[19]!;

let dir: string;
const cleanups: (() => void)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tollgate-writer-"));
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A process that runs until the test ends. */
function running(): number {
  const sleeper = spawn({ cmd: ["sleep", "60"], stdout: "ignore" });
  cleanups.push(() => sleeper.kill("SIGKILL"));
  return sleeper.pid;
}

/** The names of the journals `orphanJournals` takes (then puts back). */
function orphanNames(): string[] {
  const orphans = orphanJournals(dir, "db-a");
  for (const orphan of orphans) orphan.release();
  return orphans.map((orphan) => orphan.name).sort();
}

describe("who wrote a journal is told by more than its pid", () => {
  test("a journal whose writer died but is kept as a zombie by a parent that does not reap it is an orphan", async () => {
    const child = await spawnUnreaped(["sleep", "0.2"]);
    cleanups.push(() => child.parent.kill("SIGKILL"));
    const start = startTimeOf(child.pid);
    await untilZombie(child.pid);
    writeFileSync(join(dir, `${child.pid}.${start}-a.jnl`), journalText());
    writeFileSync(join(dir, `${child.pid}-b.jnl`), journalText());
    expect(orphanNames()).toEqual([`${child.pid}-b.jnl`, `${child.pid}.${start}-a.jnl`]);
  });

  test("a journal whose writer's pid a later process has taken (another start time) is an orphan", () => {
    const pid = running();
    writeFileSync(join(dir, `${pid}.${Number(startTimeOf(pid)) - 1}-a.jnl`), journalText());
    expect(orphanNames()).toEqual([`${pid}.${Number(startTimeOf(pid)) - 1}-a.jnl`]);
  });

  test("a journal whose writer runs (same pid and start time) is left alone", () => {
    const pid = running();
    writeFileSync(join(dir, `${pid}.${startTimeOf(pid)}-a.jnl`), journalText());
    writeFileSync(join(dir, `${pid}-b.jnl`), journalText());
    expect(orphanNames()).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([`${pid}-b.jnl`, `${pid}.${startTimeOf(pid)}-a.jnl`]);
  });
});

test("charges appended in one turn are written together at its end; durable() settles once they are on disk", async () => {
  const journal = new ChargeJournal(dir, "db-a");
  const fileLines = () => readFileSync(join(dir, journal.name), "utf8").split("\n").slice(1);
  journal.append(charge(42));
  journal.append(charge(43));
  const durable = journal.durable();
  expect(durable).toBeInstanceOf(Promise);
  await durable;
  expect(fileLines()).toEqual([expect.stringContaining("42"), expect.stringContaining("43"), ""]);
  expect(journal.durable()).toBeUndefined();
  journal.close(true);
});

test("a flush's mark never lies before a charge it holds: sync writes what waits for the end of the turn", () => {
  const journal = new ChargeJournal(dir, "db-a");
  const before = journal.bytes;
  journal.append(charge(44));
  journal.sync();
  expect(journal.bytes).toBeGreaterThan(before);
  expect(readFileSync(join(dir, journal.name), "utf8")).toContain("44");
  journal.close(true);
});

test("a long turn does not hold settled charges until its end: the next charge finds them pending too long and writes both", async () => {
  const journal = new ChargeJournal(dir, "db-a");
  const fileLines = () => readFileSync(join(dir, journal.name), "utf8").split("\n").slice(1);
  journal.append(charge(45));
  const first = journal.durable();
  // A turn busy for a few milliseconds (thousands of open streams make such turns) before the next call settles.
  const until = performance.now() + 5;
  while (performance.now() < until) {}
  journal.append(charge(46));
  expect(fileLines()).toEqual([expect.stringContaining("45"), expect.stringContaining("46"), ""]);
  expect(journal.durable()).toBeUndefined();
  await first;
  journal.close(true);
});
