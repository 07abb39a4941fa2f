import { CompiledQuery, type Kysely } from "kysely";
import type { Db } from "../connect";
import { SQLITE_RELEASED } from "./sqlite-released";

/** Kysely's Migrator bookkeeping (its default table names and lock row), as it creates it on SQLite. */
const MIGRATION_TABLE = "kysely_migration";
const LOCK_TABLE = "kysely_migration_lock";
const LOCK_ID = "migration_lock";
const BOOKKEEPING = [
  `create table if not exists "${MIGRATION_TABLE}" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null)`,
  `create table if not exists "${LOCK_TABLE}" ("id" varchar(255) not null primary key, "is_locked" integer default 0 not null)`,
];

/**
 * Applies the pending migrations (./list.ts) and answers their names. On SQLite the two common cases skip
 * Kysely's Migrator, whose schema introspection and query building cost tens of milliseconds of a cold start:
 * a database already at the latest version is recognised from its migration table, and a fresh one gets the
 * released migrations' recorded SQL (./sqlite-released.ts) in one transaction, with the same bookkeeping rows
 * the Migrator writes. Anything else (a partly migrated or foreign database, a newer unrecorded migration,
 * PostgreSQL, MySQL) goes through the Migrator, which also reports any inconsistency.
 */
export async function migrate(db: Db): Promise<string[]> {
  if (db.dialect !== "sqlite") return migrateWithMigrator(db);
  const { migrations } = await import("./list");
  const names = Object.keys(migrations("sqlite")).sort();
  const objects = await sqliteObjects(db.k);
  if (objects.length === 0) {
    const applied = await applyRecorded(db, names);
    if (applied === undefined) return migrateWithMigrator(db);
    return applied.length === names.length ? applied : [...applied, ...(await migrateWithMigrator(db))];
  }
  if (objects.includes(MIGRATION_TABLE) && objects.includes(LOCK_TABLE) && (await isLatest(db, names))) return [];
  return migrateWithMigrator(db);
}

/** Kysely's Migrator: every dialect, every state; the reference behaviour for the SQLite shortcuts. */
export async function migrateWithMigrator(db: Db): Promise<string[]> {
  const [{ Migrator }, { migrations }] = await Promise.all([import("kysely/migration"), import("./list")]);
  const migrator = new Migrator({ db: db.k, provider: { getMigrations: async () => migrations(db.dialect) } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Anything that runs a compiled query: the database or an open transaction. */
type QueryRunner = Pick<Db["k"], "executeQuery">;

async function rows<R>(k: QueryRunner, query: string, parameters: unknown[] = []): Promise<R[]> {
  return (await k.executeQuery<R>(CompiledQuery.raw(query, parameters))).rows;
}

/** Names of the schema objects (tables, indexes, views, triggers) in the database, SQLite's own left out. */
async function sqliteObjects(k: QueryRunner): Promise<string[]> {
  const found = await rows<{ name: string }>(
    k,
    `select "name" from "sqlite_master" where "name" not like 'sqlite\\_%' escape '\\'`,
  );
  return found.map((r) => r.name);
}

/**
 * On an empty database, in one transaction (BEGIN IMMEDIATE, so a second process starting at the same time waits,
 * then finds the work done): the Migrator's tables and lock row, then each recorded migration that `names` lists,
 * in order, each followed by its row in the migration table, timestamped as the Migrator does. Answers the names
 * applied, or undefined when the database is no longer empty once the transaction holds the lock.
 */
async function applyRecorded(db: Db, names: string[]): Promise<string[] | undefined> {
  const recorded = new Map(SQLITE_RELEASED);
  const toApply: string[] = [];
  for (const name of names) {
    if (!recorded.has(name)) break;
    toApply.push(name);
  }
  return db.k.transaction().execute(async (trx) => {
    if ((await sqliteObjects(trx)).length > 0) return undefined;
    for (const statement of BOOKKEEPING) await rows(trx, statement);
    await rows(trx, `insert into "${LOCK_TABLE}" ("id", "is_locked") values (?, ?)`, [LOCK_ID, 0]);
    let executedAt = 0;
    for (const name of toApply) {
      for (const statement of recorded.get(name)!) await rows(trx, statement);
      executedAt = Math.max(Date.now(), executedAt + 1);
      await rows(trx, `insert into "${MIGRATION_TABLE}" ("name", "timestamp") values (?, ?)`, [
        name,
        new Date(executedAt).toISOString(),
      ]);
    }
    return toApply;
  });
}

/**
 * Whether exactly `names` were executed, in their order, with valid timestamps and the lock row present: the
 * state in which the Migrator would apply nothing and report nothing.
 */
async function isLatest(db: Db, names: string[]): Promise<boolean> {
  const lock = await rows(db.k, `select "id" from "${LOCK_TABLE}" where "id" = ?`, [LOCK_ID]);
  if (lock.length === 0) return false;
  const executed = await rows<{ name: string; timestamp: string }>(
    db.k,
    `select "name", "timestamp" from "${MIGRATION_TABLE}"`,
  );
  if (executed.length !== names.length) return false;
  const at = new Map(executed.map((r) => [r.name, new Date(r.timestamp).getTime()]));
  if ([...at.values()].some(Number.isNaN)) return false;
  const order = [...at.keys()].sort((a, b) => at.get(a)! - at.get(b)! || a.localeCompare(b));
  return order.length === names.length && order.every((name, i) => name === names[i]);
}

/** How many of the known migrations the database has not applied (a query that also proves the database answers). */
export async function pendingMigrationCount(db: Db): Promise<number> {
  const { migrations } = await import("./list");
  const builder = db.k as unknown as Kysely<Record<string, { name: string }>>;
  const executed = await builder.selectFrom(MIGRATION_TABLE).select("name").execute();
  const applied = new Set(executed.map((r) => r.name));
  return Object.keys(migrations(db.dialect)).filter((name) => !applied.has(name)).length;
}
