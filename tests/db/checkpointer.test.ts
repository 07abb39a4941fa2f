import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { checkpointInBackground } from "../../src/db/checkpointer";
import { connect } from "../../src/db/connect";

const dir = mkdtempSync(join(tmpdir(), "tollgate-checkpoint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("on SQLite a worker thread copies the write-ahead log into the database file; stopping restores checkpoints on commit", async () => {
  const path = join(dir, "t.db");
  const db = connect({ sqlitePath: path });
  await sql`create table blobs (data blob)`.execute(db.k);
  const checkpoints = await checkpointInBackground(db, 50);
  const before = statSync(path).size;
  // 2 MB: fewer pages than SQLite's own checkpoint-on-commit threshold, so only the worker moves them.
  for (let i = 0; i < 8; i++) await sql`insert into blobs values (${new Uint8Array(256 * 1024).fill(i)})`.execute(db.k);
  let size = before;
  for (let i = 0; i < 100 && size < before + 2 * 1024 * 1024; i++) {
    await Bun.sleep(20);
    size = statSync(path).size;
  }
  expect(size).toBeGreaterThanOrEqual(before + 2 * 1024 * 1024);
  await checkpoints.stop();
  const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db.k);
  expect(rows[0]!.wal_autocheckpoint).toBe(1000);
  await db.close();
});

test("under writes that never pause, the write-ahead log still starts over: its file stays a fraction of what was written", async () => {
  const path = join(dir, "busy.db");
  const db = connect({ sqlitePath: path });
  await sql`create table rows (data blob)`.execute(db.k);
  const checkpoints = await checkpointInBackground(db, 20);
  const commits = 600;
  const commitBytes = 32 * 1024;
  for (let i = 0; i < commits; i++) {
    await sql`insert into rows values (${new Uint8Array(commitBytes).fill(i % 251)})`.execute(db.k);
    await Bun.sleep(2);
  }
  await checkpoints.stop();
  const written = commits * commitBytes;
  expect(statSync(path).size).toBeGreaterThanOrEqual(written);
  expect(statSync(`${path}-wal`).size).toBeLessThan(written / 4);
  await db.close();
});
