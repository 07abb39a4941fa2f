import { connect, type Db } from "../db/connect";
import { insertIfAbsent } from "../db/queries/key-value";
import { migrate } from "../db/migrations";
import { ChangeBus } from "./changes";
import { openRelayState, type RelayState } from "./relay/state";
import type { Config } from "./config";
import { syncThroughDatabase, syncThroughRedis } from "./change-sync";
import { keyedHash, randomAlphanumeric } from "./crypto";
import { OptionStore } from "./options/store";
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from "./rate-limit";
import { CachedSessionStore } from "./sessions/cached-store";
import { DbSessionStore } from "./sessions/db-store";
import { RedisSessionStore } from "./sessions/redis-store";
import type { SessionStore } from "./sessions/store";
import { UserDirectory } from "./users/directory";

/** Everything a service call needs; one per process, shared by the HTTP API, the CLI and the TUI. */
export interface ServiceContext {
  readonly config: Config;
  readonly db: Db;
  readonly options: OptionStore;
  readonly sessions: SessionStore;
  /** Emit after a committed write so in-memory caches drop what changed. */
  readonly changes: ChangeBus;
  /** Users by id, briefly cached; call users.forget(id) after changing a user. */
  readonly users: UserDirectory;
  /** Key of the HMACs that store sessions and access tokens. */
  readonly secret: string;
  /** Limits login, register and setup per client address. */
  readonly criticalLimiter: RateLimiter;
  readonly startedAt: number;
  /** The relay's in-memory state: routing table, token cache and balance book. */
  readonly relay: RelayState;
  close(): Promise<void>;
}

/** SESSION_SECRET from the environment, else one generated on first start and kept in the database. */
async function resolveSecret(db: Db, configured: string): Promise<string> {
  if (configured) return configured;
  return insertIfAbsent(db, "internals", "session_secret", randomAlphanumeric(64));
}

export async function openServiceContext(config: Config, db: Db = connect({ dsn: config.sqlDsn, sqlitePath: config.sqlitePath })) {
  await migrate(db);
  const changes = new ChangeBus();
  const options = new OptionStore(db, changes);
  await options.load();
  const secret = await resolveSecret(db, config.sessionSecret);
  const sync = config.redisUrl
    ? await syncThroughRedis(config.redisUrl, changes, keyedHash(secret, "redis-namespace").slice(0, 16))
    : await syncThroughDatabase(db, changes);
  const sessions: SessionStore = new CachedSessionStore(
    config.redisUrl
      ? new RedisSessionStore(config.redisUrl, secret, config.sessionTtlSeconds)
      : new DbSessionStore(db, secret, config.sessionTtlSeconds),
  );
  const { criticalRateLimit: limit, criticalRateWindowSeconds: window } = config;
  const criticalLimiter: RateLimiter = config.redisUrl
    ? new RedisRateLimiter(config.redisUrl, limit, window)
    : new MemoryRateLimiter(limit, window);
  const databaseId = await insertIfAbsent(db, "internals", "database_id", randomAlphanumeric(16));
  const relay = openRelayState(db, changes, config, databaseId);
  await relay.ready;
  await relay.book.recover();
  const ctx: ServiceContext = {
    config,
    db,
    options,
    sessions,
    changes,
    users: new UserDirectory(db, changes),
    secret,
    criticalLimiter,
    startedAt: Math.floor(Date.now() / 1000),
    relay,
    async close() {
      await relay.close();
      await sync.close();
      criticalLimiter.close();
      await sessions.close();
      await db.close();
    },
  };
  return ctx;
}
