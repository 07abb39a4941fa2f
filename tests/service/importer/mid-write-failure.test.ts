import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import type { DialectName } from "../../../src/db/connect";
import { importDatabase, type ImportRequest, SECTIONS } from "../../../src/service/importer/run";
import { BATCH_ROWS } from "../../../src/service/importer/stream";
import { DIALECTS } from "../../support/databases";
import { createForeignDatabase, type ForeignDatabase, logQuotaSum } from "../../support/foreign-gateway";
import { startTestServer, type TestServer } from "../../support/server";

/** Enough log rows for three batches, so the failure comes in the middle one. */
const LOGS = BATCH_ROWS * 2 + 500;

/** The statements that make the target's database itself refuse an insert into `table` when `when` holds. */
function failingTrigger(dialect: DialectName, table: string, when: string): string[] {
  if (dialect === "sqlite")
    return [
      `CREATE TRIGGER fail_import BEFORE INSERT ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    ];
  if (dialect === "postgres")
    return [
      `CREATE OR REPLACE FUNCTION fail_import() RETURNS trigger AS $$ BEGIN IF ${when} THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
      `CREATE TRIGGER fail_import BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION fail_import()`,
    ];
  return [
    `CREATE TRIGGER fail_import BEFORE INSERT ON ${table} FOR EACH ROW BEGIN IF ${when} THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'; END IF; END`,
  ];
}

const dropTrigger = (dialect: DialectName, table: string) =>
  dialect === "postgres" ? `DROP TRIGGER fail_import ON ${table}` : "DROP TRIGGER fail_import";

const TABLES = [
  "users",
  "tokens",
  "channels",
  "abilities",
  "options",
  "redemptions",
  "logs",
  "import_renumbered",
] as const;

describe.each(DIALECTS)("an import that fails in the middle, on %s", (dialect) => {
  let s: TestServer;
  let src: ForeignDatabase;
  const run = (statement: string) => sql.raw(statement).execute(s.ctx.db.k);
  /** Every row of every table an import writes, in a stable order. */
  const snapshot = async () =>
    Object.fromEntries(
      await Promise.all(
        TABLES.map(async (table) => {
          const rows = (await s.ctx.db.k.selectFrom(table).selectAll().execute()).map((r) => JSON.stringify(r));
          return [table, rows.sort()] as const;
        }),
      ),
    );
  const request = (): ImportRequest => ({
    from: "new-api",
    dsn: src.dsn,
    dryRun: false,
    only: new Set(SECTIONS),
    withLogs: true,
  });
  const importedLogs = () =>
    s.ctx.db.k
      .selectFrom("logs")
      .select((eb) => [
        eb.fn.countAll<number>().as("rows"),
        eb.fn.count<number>("created_at").distinct().as("times"),
        eb.fn.sum<number>("quota").as("quota"),
      ])
      .where("type", "=", 2)
      .executeTakeFirstOrThrow()
      .then((r) => ({ rows: Number(r.rows), times: Number(r.times), quota: Number(r.quota ?? 0) }));

  beforeAll(async () => {
    [s, src] = await Promise.all([
      startTestServer(dialect),
      createForeignDatabase(dialect, "new-api", "http://127.0.0.1:9", LOGS),
    ]);
    // Tollgate's own log rows hold the ids of the source's first logs: those arrive renumbered.
    await s.ctx.db.k
      .insertInto("logs")
      .values([1, 2, 3].map((id) => ({ id, user_id: 1, created_at: 1, type: 3, quota: 1 })))
      .execute();
  });
  afterAll(async () => {
    await s.stop();
    await src.database.drop();
  });

  test("a row the target refuses while users, channels, tokens and codes are written leaves every table as it was", async () => {
    for (const statement of failingTrigger(dialect, "redemptions", "NEW.quota > 0")) await run(statement);
    const before = await snapshot();
    try {
      await expect(importDatabase(s.ctx, request())).rejects.toThrow(
        /^nothing imported, the database is as it was: .*injected failure/,
      );
    } finally {
      await run(dropTrigger(dialect, "redemptions"));
    }
    expect(await snapshot()).toEqual(before);
    expect(s.ctx.options.raw("SystemName")).not.toBe("Old Gateway");
    expect((await s.client().login("alice", src.data.passwords.alice)).body.success).toBe(false);
  });

  test("a log batch the target refuses keeps the batches before it; the same import again finishes without repeating a row", async () => {
    const failAt = src.data.logsFrom + BATCH_ROWS + 500;
    for (const statement of failingTrigger(dialect, "logs", `NEW.created_at = ${failAt}`)) await run(statement);
    try {
      await expect(importDatabase(s.ctx, request())).rejects.toThrow(
        /^logs: stopped after 2000 rows were imported \(.*injected failure.*\); they and everything imported before them stay, and the same import run again carries the rest/,
      );
    } finally {
      await run(dropTrigger(dialect, "logs"));
    }
    // The first batch whole (three of it renumbered, and remembered), nothing of the second.
    expect(await importedLogs()).toEqual({ rows: BATCH_ROWS, times: BATCH_ROWS, quota: logQuotaSum(0, BATCH_ROWS) });
    expect(await s.ctx.db.k.selectFrom("import_renumbered").selectAll().execute()).toHaveLength(3);
    expect((await s.client().login("alice", src.data.passwords.alice)).body.success).toBe(true);

    const again = await importDatabase(s.ctx, request());
    expect(again.streams.find((r) => r.table === "logs")).toMatchObject({
      imported: LOGS - BATCH_ROWS,
      alreadyThere: BATCH_ROWS,
      renumbered: 0,
    });
    expect(await importedLogs()).toEqual({ rows: LOGS, times: LOGS, quota: src.data.logQuotaTotal });

    const before = await snapshot();
    const third = await importDatabase(s.ctx, request());
    expect(third.streams.find((r) => r.table === "logs")).toMatchObject({ imported: 0, alreadyThere: LOGS });
    expect(await snapshot()).toEqual(before);
  });
});
