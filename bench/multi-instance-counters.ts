/**
 * What the shared servers did during a multi-instance bench run, per call: the database's transactions and
 * statements, and Redis's commands and pub/sub messages. Counted on the servers, so a shared machine's other work on
 * the same servers counts too (PostgreSQL's figures are the bench database's own; MariaDB's and Redis's are global).
 */
import { RedisClient, SQL } from "bun";

export type Counters = Record<string, number>;

/** PostgreSQL publishes a backend's statistics when it goes idle, at most once a second: wait that out. */
const STATS_DELAY_MS = 1_200;

async function postgresCounters(dsn: string): Promise<Counters> {
  const sql = new SQL({ url: dsn, max: 1 });
  try {
    await Bun.sleep(STATS_DELAY_MS);
    const [row] = await sql`SELECT xact_commit, tup_returned, tup_fetched, tup_inserted, tup_updated
      FROM pg_stat_database WHERE datname = current_database()`;
    const tables = await sql`SELECT relname, n_tup_upd, seq_scan, idx_scan FROM pg_stat_user_tables`;
    const counters: Counters = {
      commits: Number(row.xact_commit),
      "rows read": Number(row.tup_fetched),
      "rows inserted": Number(row.tup_inserted),
      "rows updated": Number(row.tup_updated),
    };
    for (const t of tables) {
      const reads = Number(t.seq_scan ?? 0) + Number(t.idx_scan ?? 0);
      if (reads > 0) counters[`${t.relname} reads`] = reads;
      if (Number(t.n_tup_upd) > 0) counters[`${t.relname} updates`] = Number(t.n_tup_upd);
    }
    return counters;
  } finally {
    await sql.close();
  }
}

const MYSQL_STATUS = ["Com_select", "Com_update", "Com_insert", "Com_delete", "Com_commit", "Com_begin", "Questions"];

async function mysqlCounters(dsn: string): Promise<Counters> {
  const sql = new SQL({ url: dsn, max: 1 });
  try {
    const rows = await sql.unsafe(
      `SHOW GLOBAL STATUS WHERE Variable_name IN (${MYSQL_STATUS.map((n) => `'${n}'`).join(",")})`,
    );
    return Object.fromEntries(
      rows.map((r: Record<string, string>) => [Object.values(r)[0], Number(Object.values(r)[1])]),
    );
  } finally {
    await sql.close();
  }
}

async function redisCounters(url: string): Promise<Counters> {
  const redis = new RedisClient(url);
  try {
    const text = String(await redis.send("INFO", ["commandstats"]));
    const counters: Counters = {};
    for (const [, name, calls] of text.matchAll(/cmdstat_([\w|]+):calls=(\d+)/g))
      counters[`redis ${name}`] = Number(calls);
    return counters;
  } finally {
    redis.close();
  }
}

/** A snapshot of the servers' counters (none for the control, which shares no server). */
export async function serverCounters(
  dialect: "postgres" | "mysql" | "sqlite",
  dsn: string | undefined,
  redis: string,
): Promise<Counters> {
  if (dialect === "sqlite" || !dsn) return {};
  const database = dialect === "postgres" ? await postgresCounters(dsn) : await mysqlCounters(dsn);
  return { ...database, ...(await redisCounters(redis)) };
}

/** `after − before` per 1,000 calls, the counters that moved, as one line. */
export function perThousandCalls(before: Counters, after: Counters, calls: number): string {
  return Object.entries(after)
    .map(([name, value]) => [name, ((value - (before[name] ?? 0)) * 1000) / calls] as const)
    .filter(([, value]) => value >= 0.05)
    .map(([name, value]) => `${name} ${value.toFixed(value < 10 ? 1 : 0)}`)
    .join(", ");
}
