import { Database as SqliteDatabase } from "bun:sqlite";
import { SQL } from "bun";
import { existsSync } from "node:fs";
import { Kysely, sql } from "kysely";
import { type DialectName, kyselyDialect } from "../connect";
import { BunSqlDriver } from "../drivers/bun-sql";
import { BunSqliteDriver } from "../drivers/bun-sqlite";

/** Another gateway's database, opened to be read: its tables are not Tollgate's, so rows are loose records. */
export interface SourceDb {
  readonly k: Kysely<any>;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

export type SourceRow = Record<string, unknown>;

/** Why a source could not be opened; the message names the place, never the password in a DSN. */
export class SourceError extends Error {}

const withoutPassword = (dsn: string): string => dsn.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");

function sourceDialect(dsn: string): DialectName {
  if (/^postgres(ql)?:\/\//i.test(dsn)) return "postgres";
  if (/^(mysql|mariadb):\/\//i.test(dsn)) return "mysql";
  return "sqlite";
}

function openSqliteSource(path: string): SourceDb {
  const file = path.replace(/^(sqlite|file):(\/\/)?/i, "").replace(/\?.*$/, "");
  if (!existsSync(file)) throw new SourceError(`source database ${file}: no such file`);
  let handle: SqliteDatabase;
  try {
    handle = new SqliteDatabase(file, { readonly: true, strict: true });
    handle.run("PRAGMA busy_timeout = 5000");
  } catch (error) {
    throw new SourceError(`source database ${file}: ${(error as Error).message}`);
  }
  const k = new Kysely<any>({ dialect: kyselyDialect("sqlite", new BunSqliteDriver(handle)) });
  return { k, dialect: "sqlite", close: () => k.destroy() };
}

/** The statement that makes a session refuse every write. */
const READ_ONLY_SESSION = {
  postgres: "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
  mysql: "SET SESSION TRANSACTION READ ONLY",
} as const;

/**
 * Opens the source read-only: SQLite as a read-only file, PostgreSQL and MySQL over ONE connection whose session
 * is set read-only (so every later query runs in it), and checks it answers.
 */
export async function openSource(dsn: string): Promise<SourceDb> {
  const dialect = sourceDialect(dsn);
  if (dialect === "sqlite") return openSqliteSource(dsn);
  const url = dialect === "mysql" ? dsn.replace(/^mariadb:/i, "mysql:") : dsn;
  const pool = new SQL({ url, bigint: true, max: 1, idleTimeout: 0, connectionTimeout: 10 });
  const k = new Kysely<any>({ dialect: kyselyDialect(dialect, new BunSqlDriver(pool)) });
  try {
    await sql.raw(READ_ONLY_SESSION[dialect]).execute(k);
  } catch (error) {
    await k.destroy().catch(() => {});
    throw new SourceError(`cannot reach the source database ${withoutPassword(dsn)}: ${(error as Error).message}`);
  }
  return { k, dialect, close: () => k.destroy() };
}

/** Each table of the source with its columns (lower case), to tell the product and tolerate older column sets. */
export async function sourceTables(src: SourceDb): Promise<Map<string, Set<string>>> {
  const tables = await src.k.introspection.getTables();
  return new Map(tables.map((t) => [t.name.toLowerCase(), new Set(t.columns.map((c) => c.name.toLowerCase()))]));
}

/** Every row of a (small) table: users, tokens, channels, options, redemptions, top-ups. */
export const readTable = (src: SourceDb, table: string): Promise<SourceRow[]> =>
  src.k
    .selectFrom(table)
    .selectAll()
    .orderBy(table === "options" ? "key" : "id")
    .execute();

/** The next batch of a large table (logs, tasks) after `afterId`, oldest first; `since` bounds created_at. */
export function readBatch(
  src: SourceDb,
  table: string,
  afterId: number,
  limit: number,
  since?: { column: string; at: number },
): Promise<SourceRow[]> {
  let query = src.k.selectFrom(table).selectAll().where("id", ">", afterId);
  if (since) query = query.where(since.column, ">=", since.at);
  return query.orderBy("id").limit(limit).execute();
}

/** Rows of a table (from `since`), for the progress bar. */
export async function countRows(src: SourceDb, table: string, since?: { column: string; at: number }): Promise<number> {
  let query = src.k.selectFrom(table).select((eb) => eb.fn.countAll().as("n"));
  if (since) query = query.where(since.column, ">=", since.at);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function maxSourceId(src: SourceDb, table: string): Promise<number> {
  const row = await src.k
    .selectFrom(table)
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
