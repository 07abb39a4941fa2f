import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { optionalInt } from "./env-int";
import { parseCorsOrigins } from "./cors-origins";
import { parseFrameAncestors } from "./frame-ancestors";
import {
  parseLoginBackoff,
  parseRateLimits,
  type LimitedAction,
  type LoginBackoff,
  type Window,
} from "./limits/settings";
import { parseProxyTrust, type ProxyTrust } from "./proxy-trust";

export interface Config {
  port: number;
  sqlitePath: string;
  sqlDsn: string;
  redisUrl: string;
  /** Prefix of every Redis key and pub/sub channel; empty: derived from the database's identity (see redis/namespace.ts). */
  redisPrefix: string;
  /** Redis connections for commands (pub/sub has its own). */
  redisPoolSize: number;
  /** Longest wait for Redis: to connect at start, and for one command (then the caller fails fast or falls back). */
  redisTimeoutMs: number;
  /** Most connections to PostgreSQL/MySQL; idle ones close after `sqlPoolIdleSeconds`. */
  sqlPoolSize: number;
  sqlPoolIdleSeconds: number;
  /** Bearer token that opens GET /metrics; empty with no allowed addresses: /metrics answers 404. */
  metricsToken: string;
  /** Client addresses or CIDR ranges (space or comma separated) that may read /metrics without the token. */
  metricsAllow: string;
  /** The server secret (HMACs, token key seals, encryption at rest); empty means the key file's. */
  sessionSecret: string;
  /** Where the secret key is kept when SESSION_SECRET is unset; empty (an in-memory database): a key for this run. */
  secretKeyFile: string;
  initialRootPassword: string;
  /** Requests allowed per window per client address, for each limited action. */
  rateLimits: Record<LimitedAction, Window>;
  /** Waits after repeated failed sign-ins of one account. */
  loginBackoff: LoginBackoff;
  /** Upper bound of a management (/api) request body. */
  apiBodyLimitBytes: number;
  /** Upper bound of any request body (relay uploads included). */
  maxBodyBytes: number;
  /** Which proxies may name the client in X-Forwarded-For (TRUST_PROXY, TRUSTED_PROXIES). */
  trustProxy: ProxyTrust;
  /** Origins allowed to frame the console; empty: none. */
  frameAncestors: string[];
  /** Web origins whose pages may call the relay (CORS); ["*"]: any. */
  relayCorsOrigins: string[];
  sessionTtlSeconds: number;
  /** How often settled charges and log rows are written, in one transaction. */
  billingFlushMs: number;
  /** Where settled charges are journaled until written (empty: no journal, for an in-memory database). */
  billingJournalDir: string;
  /** Longest quiet gap between two chunks of an upstream stream. */
  streamingTimeoutMs: number;
  /** Upstream request timeout: to the whole reply, or to a stream's response head; 0 means none. */
  relayTimeoutMs: number;
  /** Seconds between ': PING' comments on a quiet stream; 0 means none. */
  streamPingSeconds: number;
  /** How long a stop waits for the calls in flight to finish and be billed before it closes the connections left. */
  shutdownTimeoutMs: number;
  /** Where Turnstile tokens are verified (TURNSTILE_VERIFY_URL; Cloudflare's siteverify by default). */
  turnstileVerifyUrl: string;
  /** PEM file of certificates to trust for the SMTP server besides the system's (SMTP_CA_FILE; an internal CA). */
  smtpCaFile: string;
  /** Whether this instance takes part in polling drawing and music tasks (UPDATE_TASK; one instance polls at a time). */
  updateTask: boolean;
  /** Time between two polls of the unfinished tasks. */
  taskPollMs: number;
  /** A task unfinished this long after its submission is given up and refunded (TASK_TIMEOUT_MINUTES). */
  taskTimeoutSeconds: number;
}

export const CLOUDFLARE_SITEVERIFY = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

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

/** Long enough for a slow reasoning model's non-stream answer; a hung upstream no longer holds a call (and its reservation) for good. */
export const DEFAULT_RELAY_TIMEOUT_SECONDS = 600;

const int = (value: string | undefined, fallback: number, name: string): number => optionalInt(value, name) ?? fallback;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const sessionSecret = env.SESSION_SECRET ?? "";
  if (sessionSecret === "random_string") throw new Error("SESSION_SECRET must not be the placeholder 'random_string'");
  const sqlitePath = env.SQLITE_PATH || "data/tollgate.db";
  return {
    port: int(env.PORT, 3000, "PORT"),
    sqlitePath,
    sqlDsn: env.SQL_DSN ?? "",
    redisUrl: env.REDIS_CONN_STRING ?? "",
    redisPrefix: env.REDIS_PREFIX ?? "",
    redisPoolSize: Math.max(1, int(env.REDIS_POOL_SIZE, 1, "REDIS_POOL_SIZE")),
    redisTimeoutMs: int(env.REDIS_TIMEOUT_MS, 2000, "REDIS_TIMEOUT_MS") || 2000,
    sqlPoolSize: Math.max(1, int(env.SQL_POOL_SIZE, 10, "SQL_POOL_SIZE")),
    sqlPoolIdleSeconds: int(env.SQL_POOL_IDLE_SECONDS, 30, "SQL_POOL_IDLE_SECONDS"),
    metricsToken: env.METRICS_TOKEN ?? "",
    metricsAllow: env.METRICS_ALLOW ?? "",
    sessionSecret,
    secretKeyFile: env.SECRET_KEY_FILE || (sqlitePath === ":memory:" ? "" : join(dirname(sqlitePath), "tollgate.key")),
    initialRootPassword: env.INITIAL_ROOT_PASSWORD ?? "",
    rateLimits: parseRateLimits(env),
    loginBackoff: parseLoginBackoff(env),
    apiBodyLimitBytes: int(env.API_BODY_LIMIT_KB, 1024, "API_BODY_LIMIT_KB") * 1024,
    maxBodyBytes: int(env.MAX_REQUEST_BODY_MB, 128, "MAX_REQUEST_BODY_MB") * 1024 * 1024,
    trustProxy: parseProxyTrust(env.TRUST_PROXY, env.TRUSTED_PROXIES),
    frameAncestors: parseFrameAncestors(env.CONSOLE_FRAME_ANCESTORS),
    relayCorsOrigins: parseCorsOrigins(env.RELAY_CORS_ORIGINS),
    sessionTtlSeconds: int(env.SESSION_TTL_SECONDS, 2592000, "SESSION_TTL_SECONDS"),
    billingFlushMs: int(env.BILLING_FLUSH_MS, 50, "BILLING_FLUSH_MS") || 50,
    billingJournalDir:
      env.BILLING_JOURNAL_DIR || (sqlitePath === ":memory:" ? "" : join(dirname(sqlitePath), "billing-journal")),
    streamingTimeoutMs: int(env.STREAMING_TIMEOUT, 300, "STREAMING_TIMEOUT") * 1000,
    relayTimeoutMs: int(env.RELAY_TIMEOUT, DEFAULT_RELAY_TIMEOUT_SECONDS, "RELAY_TIMEOUT") * 1000,
    streamPingSeconds: int(env.STREAM_PING_SECONDS, 0, "STREAM_PING_SECONDS"),
    shutdownTimeoutMs: int(env.SHUTDOWN_TIMEOUT, 30, "SHUTDOWN_TIMEOUT") * 1000,
    turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL || CLOUDFLARE_SITEVERIFY,
    smtpCaFile: env.SMTP_CA_FILE ?? "",
    updateTask: env.UPDATE_TASK !== "false",
    taskPollMs: (int(env.TASK_POLL_SECONDS, 15, "TASK_POLL_SECONDS") || 15) * 1000,
    taskTimeoutSeconds: (int(env.TASK_TIMEOUT_MINUTES, 1440, "TASK_TIMEOUT_MINUTES") || 1440) * 60,
  };
}
