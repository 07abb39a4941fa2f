import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { Migrator } from "kysely/migration";
import { recordSqliteMigrations } from "../../build/sqlite-migrations";
import { connect, type Db } from "../../src/db/connect";
import { migrate, migrateWithMigrator } from "../../src/db/migrations";
import { migrations } from "../../src/db/migrations/list";
import { SQLITE_RELEASED } from "../../src/db/migrations/sqlite-released";

const dir = mkdtempSync(join(tmpdir(), "tollgate-sqlite-migrations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const open = (): Db => connect({ sqlitePath: join(dir, `t${files++}.db`) });
const ALL = Object.keys(migrations("sqlite")).sort();

/** Everything that makes up the schema, and the Migrator's bookkeeping without its timestamps. */
async function schemaOf(db: Db) {
  const objects = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
    select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(db.k);
  const executed = await sql<{ name: string }>`select name from kysely_migration order by timestamp, name`.execute(
    db.k,
  );
  const lock = await sql`select id, is_locked from kysely_migration_lock`.execute(db.k);
  return { objects: objects.rows, executed: executed.rows.map((r) => r.name), lock: lock.rows };
}

describe("SQLite migrations without Kysely's Migrator", () => {
  test("the recorded SQL of the released migrations is what the migrations issue", async () => {
    const recorded = new Map(await recordSqliteMigrations());
    expect(SQLITE_RELEASED.length).toBeGreaterThan(0);
    for (const [name, statements] of SQLITE_RELEASED)
      expect([name, recorded.get(name)]).toEqual([name, [...statements]]);
  });

  test("a fresh database gets the same schema and bookkeeping as through the Migrator; a second run applies nothing", async () => {
    const quick = open();
    const reference = open();
    expect(await migrate(quick)).toEqual(ALL);
    expect(await migrateWithMigrator(reference)).toEqual(ALL);
    const schema = await schemaOf(quick);
    expect(schema).toEqual(await schemaOf(reference));
    expect(schema.executed).toEqual(ALL);
    expect(await migrate(quick)).toEqual([]);
    expect(await migrateWithMigrator(quick)).toEqual([]);
    expect(await migrate(reference)).toEqual([]);
    await quick.close();
    await reference.close();
  });

  test("a partly migrated database is completed by the Migrator", async () => {
    const db = open();
    const partial = new Migrator({ db: db.k, provider: { getMigrations: async () => migrations("sqlite") } });
    expect((await partial.migrateTo(ALL[1]!)).error).toBeUndefined();
    expect(await migrate(db)).toEqual(ALL.slice(2));
    const reference = open();
    await migrate(reference);
    expect(await schemaOf(db)).toEqual(await schemaOf(reference));
    await db.close();
    await reference.close();
  });

  test("a database with tables of its own is migrated by the Migrator", async () => {
    const db = open();
    await sql`create table other (x integer)`.execute(db.k);
    expect(await migrate(db)).toEqual(ALL);
    expect((await schemaOf(db)).executed).toEqual(ALL);
    await db.close();
  });

  test("an inconsistent migration table is still refused", async () => {
    const db = open();
    await migrate(db);
    await sql`insert into kysely_migration (name, timestamp) values ('999-unknown', ${new Date().toISOString()})`.execute(
      db.k,
    );
    await expect(migrate(db)).rejects.toThrow(/corrupted migrations/);
    await db.close();
  });
});
