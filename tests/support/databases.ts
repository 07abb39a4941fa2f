import { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type Db, type DialectName } from "../../src/db/connect";

/** Every data-layer and service test runs on all three; none is skipped when a server is missing. */
export const DIALECTS: DialectName[] = ["sqlite", "postgres", "mysql"];

const PG_ADMIN_URLS = process.env.TEST_PG_URL
  ? [process.env.TEST_PG_URL]
  : ["postgres://postgres@127.0.0.1:5432/test", "postgres://root@127.0.0.1:5432/test"];
const MYSQL_ADMIN_URL = process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test";
/** The Redis of session and rate-limit tests; keys are namespaced per test database or prefixed per test. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface TestDatabase {
  dialect: DialectName;
  /** SQL_DSN for this database ("" for SQLite). */
  dsn: string;
  sqlitePath: string;
  open(): Db;
  drop(): Promise<void>;
}

let pgAdminUrl: string | undefined;
async function pgAdmin(): Promise<SQL> {
  for (const url of pgAdminUrl ? [pgAdminUrl] : PG_ADMIN_URLS) {
    const sql = new SQL({ url, max: 1 });
    try {
      await sql.unsafe("SELECT 1");
      pgAdminUrl = url;
      return sql;
    } catch (error) {
      await sql.close();
      if (url === PG_ADMIN_URLS.at(-1)) throw error;
    }
  }
  throw new Error("no PostgreSQL admin connection");
}

const withDatabase = (url: string, name: string) => url.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);

/** A fresh, empty database of the dialect, so runs never collide. */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const name = `tg_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const dir = mkdtempSync(join(tmpdir(), "tollgate-test-"));
  const sqlitePath = join(dir, "tollgate.db");
  if (dialect === "sqlite") {
    return {
      dialect,
      dsn: "",
      sqlitePath,
      open: () => connect({ sqlitePath }),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (dialect === "postgres") {
    const admin = await pgAdmin();
    await admin.unsafe(`CREATE DATABASE ${name}`);
    await admin.close();
    const dsn = withDatabase(pgAdminUrl!, name);
    return {
      dialect,
      dsn,
      sqlitePath,
      open: () => connect({ dsn, sqlitePath, poolSize: 5 }),
      drop: async () => {
        const sql = await pgAdmin();
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await sql.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const admin = new SQL({ url: MYSQL_ADMIN_URL, max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.close();
  const dsn = withDatabase(MYSQL_ADMIN_URL, name);
  return {
    dialect,
    dsn,
    sqlitePath,
    open: () => connect({ dsn, sqlitePath, poolSize: 5 }),
    drop: async () => {
      const sql = new SQL({ url: MYSQL_ADMIN_URL, max: 1 });
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name}`);
      await sql.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
