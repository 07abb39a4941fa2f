/**
 * `tollgate import --with-logs` speed: a one-api SQLite file with BENCH_IMPORT_LOGS log rows (default 200 000)
 * imported into a fresh Tollgate SQLite database through the service call the CLI makes; prints rows per second
 * of the log stream (read, map, write in batches of 2 000, one transaction each).
 *
 *   bun bench/import.ts          (or as part of `bun run bench`; BENCH_IMPORT_DIALECT=postgres|mysql for those)
 */
import type { Kysely } from "kysely";
import type { DialectName } from "../src/db/connect";
import { loadConfig } from "../src/service/config";
import { openServiceContext } from "../src/service/context";
import { importDatabase, SECTIONS } from "../src/service/importer/run";
import { createTestDatabase } from "../tests/support/databases";
import { createSchema, fill } from "../tests/support/foreign-gateway";

const ROWS = Number(process.env.BENCH_IMPORT_LOGS || 200_000);
/** Source and target on the same kind of database (sqlite, postgres or mysql). */
const DIALECT = (process.env.BENCH_IMPORT_DIALECT || "sqlite") as DialectName;

export async function importBench(): Promise<void> {
  const [source, target] = await Promise.all([createTestDatabase(DIALECT), createTestDatabase(DIALECT)]);
  try {
    const db = source.open();
    const k = db.k as unknown as Kysely<any>;
    await createSchema(k, DIALECT, "one-api");
    await k.transaction().execute((tx) => fill(tx, DIALECT, "one-api", "http://127.0.0.1:9", ROWS));
    db.sqliteHandle?.run("PRAGMA journal_mode = DELETE");
    await db.close();
    const ctx = await openServiceContext(loadConfig({ SQL_DSN: target.dsn, SQLITE_PATH: target.sqlitePath }));
    try {
      const report = await importDatabase(ctx, {
        from: "one-api",
        dsn: DIALECT === "sqlite" ? source.sqlitePath : source.dsn,
        dryRun: false,
        only: new Set(SECTIONS),
        withLogs: true,
      });
      const logs = report.streams.find((s) => s.table === "logs")!;
      console.log(
        `import --with-logs (one-api ${DIALECT} → Tollgate ${DIALECT}): ${logs.imported} log rows in ${logs.seconds.toFixed(1)} s = ` +
          `${Math.round(logs.imported / logs.seconds)} rows/s`,
      );
    } finally {
      await ctx.close();
    }
  } finally {
    await Promise.all([source.drop(), target.drop()]);
  }
}

if (import.meta.main) await importBench();
