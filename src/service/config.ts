import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface Config {
  port: number;
  sqlitePath: string;
  sqlDsn: string;
  redisUrl: string;
  /** Empty means generate once and keep in the database. */
  sessionSecret: string;
  initialRootPassword: string;
  /** Requests allowed per window per IP on login, register and setup. */
  criticalRateLimit: number;
  criticalRateWindowSeconds: number;
  /** Upper bound of a management (/api) request body. */
  apiBodyLimitBytes: number;
  /** Upper bound of any request body (relay uploads included). */
  maxBodyBytes: number;
  /** Honour X-Forwarded-For for the client address (only behind a trusted proxy). */
  trustProxy: boolean;
  sessionTtlSeconds: number;
  /** How often settled charges and log rows are written, in one transaction. */
  billingFlushMs: number;
  /** Where settled charges are journaled until written (empty: no journal, for an in-memory database). */
  billingJournalDir: string;
  /** Longest quiet gap between two chunks of an upstream stream. */
  streamingTimeoutMs: number;
  /** Upstream request timeout (to the response headers); 0 means none. */
  relayTimeoutMs: number;
  /** Seconds between ': PING' comments on a quiet stream; 0 means none. */
  streamPingSeconds: number;
  /** How long a stop waits for the calls in flight to finish and be billed before it closes the connections left. */
  shutdownTimeoutMs: number;
}

/** Reads KEY=VALUE lines of a .env file into env, without overriding what is already set. */
export function loadDotEnv(path = ".env", env: Record<string, string | undefined> = process.env): void {
  if (!existsSync(path)) return;
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!match) continue;
    const [, key, raw] = match as unknown as [string, string, string];
    const value = raw.replace(/^(['"])(.*)\1$/, "$2");
    if (env[key] === undefined) env[key] = value;
  }
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const sessionSecret = env.SESSION_SECRET ?? "";
  if (sessionSecret === "random_string") throw new Error("SESSION_SECRET must not be the placeholder 'random_string'");
  const sqlitePath = env.SQLITE_PATH || "data/tollgate.db";
  return {
    port: int(env.PORT, 3000, "PORT"),
    sqlitePath,
    sqlDsn: env.SQL_DSN ?? "",
    redisUrl: env.REDIS_CONN_STRING ?? "",
    sessionSecret,
    initialRootPassword: env.INITIAL_ROOT_PASSWORD ?? "",
    criticalRateLimit: int(env.CRITICAL_RATE_LIMIT, 20, "CRITICAL_RATE_LIMIT"),
    criticalRateWindowSeconds: int(env.CRITICAL_RATE_LIMIT_DURATION, 1200, "CRITICAL_RATE_LIMIT_DURATION"),
    apiBodyLimitBytes: int(env.API_BODY_LIMIT_KB, 1024, "API_BODY_LIMIT_KB") * 1024,
    maxBodyBytes: int(env.MAX_REQUEST_BODY_MB, 128, "MAX_REQUEST_BODY_MB") * 1024 * 1024,
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    sessionTtlSeconds: int(env.SESSION_TTL_SECONDS, 2592000, "SESSION_TTL_SECONDS"),
    billingFlushMs: int(env.BILLING_FLUSH_MS, 50, "BILLING_FLUSH_MS") || 50,
    billingJournalDir: env.BILLING_JOURNAL_DIR || (sqlitePath === ":memory:" ? "" : join(dirname(sqlitePath), "billing-journal")),
    streamingTimeoutMs: int(env.STREAMING_TIMEOUT, 300, "STREAMING_TIMEOUT") * 1000,
    relayTimeoutMs: int(env.RELAY_TIMEOUT, 0, "RELAY_TIMEOUT") * 1000,
    streamPingSeconds: int(env.STREAM_PING_SECONDS, 0, "STREAM_PING_SECONDS"),
    shutdownTimeoutMs: int(env.SHUTDOWN_TIMEOUT, 30, "SHUTDOWN_TIMEOUT") * 1000,
  };
}
