import { Database as SqliteDatabase } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import {
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect as KyselyDialect,
  type Driver,
} from "kysely";
import { BunSqlDriver } from "./drivers/bun-sql";
import { BunSqliteDriver } from "./drivers/bun-sqlite";
import type { SecretColumns } from "./exec";
import type { Tables } from "./schema";

export type DialectName = "sqlite" | "postgres" | "mysql";

export interface Db {
  readonly k: Kysely<Tables>;
  readonly dialect: DialectName;
  /** Path of the SQLite file, when the database is SQLite. */
  readonly sqlitePath?: string;
  /** The SQLite handle, handed to transactions (`inTransaction`): outside one, the builder owns the connection. */
  readonly sqliteHandle?: SqliteDatabase;
  readonly secrets?: SecretColumns;
  /** Connections of the pool (PostgreSQL/MySQL) in use by a query or transaction right now, and its bound. */
  readonly pool?: { inUse(): number; readonly size: number };
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** postgres://… or mysql://…; empty means SQLite. */
  dsn?: string;
  sqlitePath: string;
  poolSize?: number;
  /** Seconds an unused pooled connection stays open; 0: for good. */
  idleSeconds?: number;
}

export function dialectOf(dsn: string | undefined): DialectName {
  if (!dsn) return "sqlite";
  if (/^postgres(ql)?:\/\//i.test(dsn)) return "postgres";
  if (/^(mysql|mariadb):\/\//i.test(dsn)) return "mysql";
  throw new Error("SQL_DSN must start with postgres:// or mysql://");
}

export function kyselyDialect(dialect: DialectName, driver: Driver): KyselyDialect {
  const parts = {
    sqlite: [SqliteAdapter, SqliteQueryCompiler, SqliteIntrospector],
    postgres: [PostgresAdapter, PostgresQueryCompiler, PostgresIntrospector],
    mysql: [MysqlAdapter, MysqlQueryCompiler, MysqlIntrospector],
  } as const;
  const [Adapter, Compiler, Introspector] = parts[dialect];
  return {
    createAdapter: () => new Adapter(),
    createDriver: () => driver,
    createQueryCompiler: () => new Compiler(),
    createIntrospector: (db) => new Introspector(db),
  };
}

/** SQLite's page cache per connection, KiB: it fills up to this as the database is used, then stays. */
export const SQLITE_CACHE_KIB = 8192;

/** SQLite's own files for a database: it creates -wal and -shm with the database file's mode, so that one comes first. */
const SQLITE_FILES = ["", "-wal", "-shm"];

/** The database's files readable by their owner alone: they hold sessions, balances and (sealed) secrets. */
export function restrictSqliteFiles(path: string): void {
  for (const file of SQLITE_FILES.map((suffix) => path + suffix)) {
    try {
      if (existsSync(file)) chmodSync(file, 0o600);
    } catch (error) {
      console.warn(`[database] could not make ${file} readable by its owner alone: ${(error as Error).message}`);
    }
  }
}

function openSqlite(path: string): SqliteDatabase {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true });
    closeSync(openSync(path, "a", 0o600));
    restrictSqliteFiles(path);
  }
  const db = new SqliteDatabase(path, { create: true, strict: true });
  // First: the journal-mode switch below takes a lock too, and without a timeout it fails at once ("database is
  // locked") while another process holds the file, e.g. one closing its connection.
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA foreign_keys = ON");
  db.run(`PRAGMA cache_size = -${SQLITE_CACHE_KIB}`);
  return db;
}

export function connect(options: ConnectOptions): Db {
  const dialect = dialectOf(options.dsn);
  if (dialect === "sqlite") {
    const sqlite = openSqlite(options.sqlitePath);
    const k = new Kysely<Tables>({ dialect: kyselyDialect("sqlite", new BunSqliteDriver(sqlite)) });
    return { k, dialect, sqlitePath: options.sqlitePath, sqliteHandle: sqlite, close: () => k.destroy() };
  }
  const url = dialect === "mysql" ? options.dsn!.replace(/^mariadb:/i, "mysql:") : options.dsn!;
  const size = options.poolSize ?? 10;
  // Read off Bun here, not imported: its client is ~3 000 objects a server on SQLite need not load.
  const pool = new Bun.SQL({ url, bigint: true, max: size, idleTimeout: options.idleSeconds ?? 30 });
  const driver = new BunSqlDriver(pool);
  const k = new Kysely<Tables>({ dialect: kyselyDialect(dialect, driver) });
  return { k, dialect, pool: { inUse: () => driver.inUse, size }, close: () => k.destroy() };
}
