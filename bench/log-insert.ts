/**
 * What a relayed call's log row costs SQLite (CPU time), and how much of it is the logs table's indexes: consume rows like
 * the relay's written through the billing flush's own statements (`writeChargeTotals`, one transaction per
 * batch) into a fresh database, with every index, with each index left out in turn, and with none.
 *
 *   taskset -c 0 bun bench/log-insert.ts [--rows 60000] [--batch 800]
 *
 * The batch is what one 50 ms flush writes at ~16 000 calls/s.
 */
import { parseArgs } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "../src/db/connect";
import { inTransaction } from "../src/db/exec";
import { migrate } from "../src/db/migrations";
import { writeChargeTotals } from "../src/db/queries/charges";
import type { NewLogRow } from "../src/db/schema";

const { values } = parseArgs({ options: { rows: { type: "string" }, batch: { type: "string" } } });
const ROWS = Number(values.rows ?? 60_000);
const BATCH = Number(values.batch ?? 800);

const OTHER = JSON.stringify({
  frt: 3,
  model_ratio: 15,
  completion_ratio: 1,
  cache_ratio: 1,
  cache_tokens: 0,
  model_price: -1,
  group_ratio: 1,
  user_group_ratio: 1,
  upstream_model_name: "gpt-4o-mini",
  is_model_mapped: false,
  usage_source: "upstream",
  inbound: "openai",
  family: "openai",
  client_type: "other",
  admin_info: { use_channel: [1] },
});

function row(i: number, now: number): NewLogRow {
  return {
    user_id: 1 + (i % 3),
    username: `user${i % 3}`,
    created_at: now + Math.floor(i / 16_000),
    type: 2,
    content: "",
    token_name: `key${i % 5}`,
    token_id: 1 + (i % 5),
    model_name: "gpt-4o-mini",
    quota: 30,
    prompt_tokens: 12,
    completion_tokens: 20,
    use_time: 0,
    is_stream: 0,
    channel_id: 1,
    group: "default",
    ip: "127.0.0.1",
    request_id: `20261125043000${String(i).padStart(12, "0")}`,
    other: OTHER,
  };
}

/** A fresh, migrated SQLite database and the names of its logs table's indexes. */
async function freshDatabase() {
  const dir = mkdtempSync(join(tmpdir(), "tollgate-log-insert-"));
  const db = connect({ sqlitePath: join(dir, "bench.db") });
  await migrate(db);
  const indexes = (
    db
      .sqliteHandle!.query(
        "select name from sqlite_master where type = 'index' and tbl_name = 'logs' and sql is not null",
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
  const close = async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { db, indexes, close };
}

/** Microseconds per row, the indexes `drop` names removed first. */
async function microsPerRow(drop: (indexes: string[]) => string[]): Promise<{ indexes: number; micros: number }> {
  const { db, indexes, close } = await freshDatabase();
  try {
    const dropped = drop(indexes);
    for (const name of dropped) db.sqliteHandle!.run(`drop index "${name}"`);
    const now = Math.floor(Date.now() / 1000);
    const empty = { users: new Map(), tokens: new Map(), channels: new Map() };
    const batches = Array.from({ length: Math.ceil(ROWS / BATCH) }, (_, b) =>
      Array.from({ length: Math.min(BATCH, ROWS - b * BATCH) }, (_, i) => row(b * BATCH + i, now)),
    );
    // CPU time, not wall time: on a shared machine the process waits for its core.
    const began = process.cpuUsage();
    for (const logs of batches) await inTransaction(db, (tx) => writeChargeTotals(tx, { ...empty, logs }));
    const spent = process.cpuUsage(began);
    return { indexes: indexes.length - dropped.length, micros: (spent.user + spent.system) / ROWS };
  } finally {
    await close();
  }
}

const report = (label: string, r: { indexes: number; micros: number }) =>
  console.log(`${label.padEnd(36)} ${String(r.indexes).padStart(2)} indexes  ${r.micros.toFixed(2)} µs/row`);

await microsPerRow(() => []); // warm-up
report("every index", await microsPerRow(() => []));
report("no index", await microsPerRow((all) => all));
const { indexes, close } = await freshDatabase();
await close();
for (const name of indexes) report(`without ${name}`, await microsPerRow(() => [name]));
report("every index (again)", await microsPerRow(() => []));
