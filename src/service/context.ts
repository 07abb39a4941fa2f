import { connect, type Db } from "../db/connect";
import { insertIfAbsent } from "../db/queries/key-value";
import { migrate } from "../db/migrations";
import { RedisClient } from "bun";
import { ChangeBus } from "./changes";
import { openRelayState, type RelayState } from "./relay/state";
import type { Config } from "./config";
import { syncThroughDatabase, syncThroughRedis } from "./change-sync";
import { keyedHash, randomAlphanumeric } from "./crypto";
import { OptionStore } from "./options/store";
import { AddressLimits } from "./limits/address-limits";
import { RedisTrafficWindows } from "./limits/redis-traffic-windows";
import { MemoryTrafficWindows, type TrafficWindows } from "./limits/traffic-windows";
import { MemorySignInFailures, RedisSignInFailures, type SignInFailures } from "./limits/sign-in-failures";
import { CachedSessionStore } from "./sessions/cached-store";
import { DbSessionStore } from "./sessions/db-store";
import { RedisSessionStore } from "./sessions/redis-store";
import type { SessionStore } from "./sessions/store";
import { openSecrets } from "./secrets/open";
import { UserDirectory } from "./users/directory";
import { fillUsernameKeys } from "./users/username-keys";

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
  /** Key of the HMACs that store sessions and access tokens, and of the seals of token keys and secrets at rest. */
  readonly secret: string;
  /** Where the secret came from, and what the operator should be told about it at start. */
  readonly secretKey: { source: string; notices: string[] };
  /** Limits sign-in, registration, redemption, key reveal and payment per client address, each on its own. */
  readonly addressLimits: AddressLimits;
  /** The sign-in backoff's counts per account. */
  readonly signInFailures: SignInFailures;
  /** The relay's request and token-rate windows: in Redis when configured (shared by every instance), else here. */
  readonly traffic: TrafficWindows;
  readonly startedAt: number;
  /** The relay's in-memory state: routing table, token cache and balance book. */
  readonly relay: RelayState;
  close(): Promise<void>;
}

export async function openServiceContext(
  config: Config,
  opened: Db = connect({ dsn: config.sqlDsn, sqlitePath: config.sqlitePath }),
) {
  await migrate(opened);
  await fillUsernameKeys(opened);
  const { secret, source, notices, cipher } = await openSecrets(opened, config).catch(async (error) => {
    await opened.close();
    throw error;
  });
  const db: Db = { ...opened, secrets: cipher };
  const changes = new ChangeBus();
  const options = new OptionStore(db, changes);
  await options.load();
  const namespace = keyedHash(secret, "redis-namespace").slice(0, 16);
  const sync = config.redisUrl
    ? await syncThroughRedis(config.redisUrl, changes, namespace)
    : await syncThroughDatabase(db, changes);
  const sessions: SessionStore = new CachedSessionStore(
    config.redisUrl
      ? new RedisSessionStore(config.redisUrl, secret, config.sessionTtlSeconds)
      : new DbSessionStore(db, secret, config.sessionTtlSeconds),
  );
  const limitsRedis = config.redisUrl ? new RedisClient(config.redisUrl) : undefined;
  const limitsPrefix = `tollgate:${namespace}:`;
  const addressLimits = new AddressLimits(
    config.rateLimits,
    limitsRedis && { client: limitsRedis, prefix: limitsPrefix },
  );
  const signInFailures: SignInFailures = limitsRedis
    ? new RedisSignInFailures(limitsRedis, `${limitsPrefix}sign-in:`, config.loginBackoff)
    : new MemorySignInFailures(config.loginBackoff);
  const traffic: TrafficWindows = limitsRedis
    ? new RedisTrafficWindows(limitsRedis, `${limitsPrefix}traffic:`)
    : new MemoryTrafficWindows();
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
    secretKey: { source, notices },
    addressLimits,
    signInFailures,
    traffic,
    startedAt: Math.floor(Date.now() / 1000),
    relay,
    async close() {
      await relay.close();
      await sync.close();
      addressLimits.close();
      signInFailures.close();
      traffic.close();
      limitsRedis?.close();
      await sessions.close();
      await db.close();
    },
  };
  return ctx;
}
