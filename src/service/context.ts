import { readFileSync } from "node:fs";
import { connect, type Db } from "../db/connect";
import { insertIfAbsent } from "../db/queries/key-value";
import { migrate } from "../db/migrations";
import { ChangeBus } from "./changes";
import { openRelayState, type RelayState } from "./relay/state";
import type { Config } from "./config";
import { syncThroughDatabase, syncThroughRedis } from "./change-sync";
import { randomAlphanumeric } from "./crypto";
import { OptionStore } from "./options/store";
import { AddressLimits } from "./limits/address-limits";
import { RedisTrafficWindows } from "./limits/redis-traffic-windows";
import { MemoryTrafficWindows, type TrafficWindows } from "./limits/traffic-windows";
import { MemorySignInFailures, RedisSignInFailures, type SignInFailures } from "./limits/sign-in-failures";
import { CachedSessionStore } from "./sessions/cached-store";
import { DbSessionStore } from "./sessions/db-store";
import { RedisSessionStore } from "./sessions/redis-store";
import { RedisLink } from "./redis/connection";
import { sharedOrLocal } from "./redis/fallback";
import { redisPrefix } from "./redis/namespace";
import type { SessionStore } from "./sessions/store";
import { openSecrets } from "./secrets/open";
import { UserDirectory } from "./users/directory";
import { QuotaReminder } from "./accounts/quota-reminder";
import { type MailSender, SmtpMailSender, smtpSettingsOf } from "./mail/mailer";
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
  /** The shared Redis (REDIS_CONN_STRING), with this deployment's key prefix; undefined without one. */
  readonly redis?: RedisLink;
  /** Set when the process is stopping: readiness answers false from then on. */
  readonly lifecycle: { draining: boolean };
  /** Sends the site's mails (SMTP with the options of the moment). */
  readonly mail: MailSender;
  close(): Promise<void>;
}

/** The database of a configuration, its pool sized by SQL_POOL_SIZE / SQL_POOL_IDLE_SECONDS. */
export const connectDatabase = (config: Config): Db =>
  connect({
    dsn: config.sqlDsn,
    sqlitePath: config.sqlitePath,
    poolSize: config.sqlPoolSize,
    idleSeconds: config.sqlPoolIdleSeconds,
  });

/** What start-up has opened so far, closed in reverse order when a later step fails. */
class Opened {
  private readonly closers: (() => unknown)[] = [];

  add<T>(thing: T, close: (thing: T) => unknown): T {
    this.closers.push(() => close(thing));
    return thing;
  }

  async closeAll(): Promise<void> {
    for (const close of this.closers.reverse()) await Promise.resolve(close()).catch(() => {});
  }
}

/**
 * Opens everything a service call needs. A step that fails closes what the earlier ones opened (database pool,
 * Redis connections) before the error reaches the caller, so a failed start holds no connection.
 */
export async function openServiceContext(config: Config, opened: Db = connectDatabase(config)) {
  const started = new Opened();
  started.add(opened, (db) => db.close());
  try {
    return await openOn(config, opened, started);
  } catch (error) {
    await started.closeAll();
    throw error;
  }
}

async function openOn(config: Config, opened: Db, started: Opened): Promise<ServiceContext> {
  await migrate(opened);
  await fillUsernameKeys(opened);
  const { secret, source, notices, cipher } = await openSecrets(opened, config);
  const db: Db = { ...opened, secrets: cipher };
  const changes = new ChangeBus();
  const options = new OptionStore(db, changes);
  await options.load();
  const databaseId = await insertIfAbsent(db, "internals", "database_id", randomAlphanumeric(16));
  const redis =
    config.redisUrl &&
    started.add(
      await RedisLink.open(
        config.redisUrl,
        config.redisPoolSize,
        config.redisTimeoutMs,
        redisPrefix(config, databaseId),
      ),
      (link) => link.close(),
    );
  const sync = started.add(
    redis ? await syncThroughRedis(redis, changes) : await syncThroughDatabase(db, changes),
    (s) => s.close(),
  );
  const record = new DbSessionStore(db, secret, config.sessionTtlSeconds);
  const sessions: SessionStore = started.add(
    new CachedSessionStore(redis ? new RedisSessionStore(record, redis, secret) : record),
    (s) => s.close(),
  );
  const addressLimits = started.add(new AddressLimits(config.rateLimits, redis || undefined), (l) => l.close());
  const localFailures = new MemorySignInFailures(config.loginBackoff);
  const signInFailures: SignInFailures = started.add(
    redis
      ? sharedOrLocal<SignInFailures>(
          new RedisSignInFailures(redis.client, `${redis.prefix}sign-in:`, config.loginBackoff),
          localFailures,
          redis.timeoutMs,
          "a sign-in backoff",
        )
      : localFailures,
    (f) => f.close(),
  );
  const localTraffic = new MemoryTrafficWindows();
  const traffic: TrafficWindows = started.add(
    redis
      ? sharedOrLocal<TrafficWindows>(
          new RedisTrafficWindows(redis.client, `${redis.prefix}traffic:`),
          localTraffic,
          redis.timeoutMs,
          "a traffic window",
        )
      : localTraffic,
    (t) => t.close(),
  );
  const relay = openRelayState(db, changes, config, databaseId);
  started.add(relay, (r) => r.close());
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
    redis: redis || undefined,
    lifecycle: { draining: false },
    mail: new SmtpMailSender(
      () => smtpSettingsOf(options),
      config.smtpCaFile ? readFileSync(config.smtpCaFile, "utf8") : undefined,
    ),
    async close() {
      await relay.close();
      await sync.close();
      addressLimits.close();
      signInFailures.close();
      traffic.close();
      await sessions.close();
      if (redis) redis.close();
      await db.close();
    },
  };
  const reminder = new QuotaReminder(ctx);
  relay.book.onWritten = (balances) => void reminder.check(balances).catch(() => {});
  return ctx;
}
