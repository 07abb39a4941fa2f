import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Kysely } from "kysely";
import { importDatabase, SECTIONS } from "../../../src/service/importer/run";
import { BATCH_ROWS } from "../../../src/service/importer/stream";
import { DIALECTS } from "../../support/databases";
import { createForeignDatabase, type ForeignDatabase } from "../../support/foreign-gateway";
import { startTestServer, type TestServer } from "../../support/server";

/** A million log rows on each of the three databases, as the realistic source has. */
const ROWS = 1_000_000;

/** Far less than the rows of a million logs take as objects (hundreds of megabytes). */
const HEAP_GROWTH_LIMIT = 64 * 1024 * 1024;

/** Sampling the heap after a full collection every this many batches. */
const SAMPLE_EVERY = 25;

const heapAfterCollection = () => {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
};

type QuotaByUser = Record<string, { rows: number; quota: number }>;

/** Rows and quota per user name, counted by the database holding them. */
async function quotaByUser(k: Kysely<any>): Promise<QuotaByUser> {
  const rows = await k
    .selectFrom("logs")
    .select((eb) => ["username", eb.fn.countAll().as("rows"), eb.fn.sum("quota").as("quota")])
    .where("type", "=", 2)
    .groupBy("username")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.username, { rows: Number(r.rows), quota: Number(r.quota) }]));
}

describe.each(DIALECTS)("a large log table imported on %s", (dialect) => {
  const rows = ROWS;
  let s: TestServer;
  let src: ForeignDatabase;
  beforeAll(async () => {
    [s, src] = await Promise.all([
      startTestServer(dialect),
      createForeignDatabase(dialect, "one-api", "http://127.0.0.1:9", rows),
    ]);
  }, 120_000);
  afterAll(async () => {
    await s.stop();
    await src.database.drop();
  });

  test(`${rows} rows arrive in batches of ${BATCH_ROWS}, every row and unit of quota, the heap holding one batch at a time`, async () => {
    const batches: number[] = [];
    const baseline = heapAfterCollection();
    let peak = baseline;
    const report = await importDatabase(s.ctx, {
      from: "one-api",
      dsn: src.dsn,
      dryRun: false,
      only: new Set(SECTIONS),
      withLogs: true,
      onProgress: (table, _done, _total, batch) => {
        if (table !== "logs") return;
        batches.push(batch);
        if (batches.length % SAMPLE_EVERY === 0) peak = Math.max(peak, heapAfterCollection());
      },
    });
    const logs = report.streams.find((r) => r.table === "logs")!;
    expect(logs).toMatchObject({ total: rows, read: rows, imported: rows, alreadyThere: 0, skipped: 0, renumbered: 0 });
    expect(batches).toHaveLength(Math.ceil(rows / BATCH_ROWS));
    expect(Math.max(...batches)).toBe(BATCH_ROWS);
    expect(peak - baseline).toBeLessThan(HEAP_GROWTH_LIMIT);

    const source = src.database.open();
    try {
      const expected = await quotaByUser(source.k as unknown as Kysely<any>);
      expect(expected.alice!.rows + expected.bob!.rows).toBe(rows);
      expect(expected.alice!.quota + expected.bob!.quota).toBe(src.data.logQuotaTotal);
      expect(await quotaByUser(s.ctx.db.k as unknown as Kysely<any>)).toEqual(expected);
    } finally {
      await source.close();
    }
    const distinct = await s.ctx.db.k
      .selectFrom("logs")
      .select((eb) => eb.fn.count<number>("created_at").distinct().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(distinct.n)).toBe(rows);
    console.log(
      `import --with-logs on ${dialect}: ${rows} log rows in ${logs.seconds.toFixed(1)} s = ` +
        `${Math.round(rows / logs.seconds)} rows/s (heap grew ${((peak - baseline) / 1048576).toFixed(1)} MiB)`,
    );
  }, 600_000);
});
