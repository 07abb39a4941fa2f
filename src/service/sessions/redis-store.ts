import { keyedHash } from "../crypto";
import type { RedisLink } from "../redis/connection";
import type { DbSessionStore } from "./db-store";
import type { SessionStore } from "./store";

/** Longest a session stays cached in Redis: bounds how long a revocation Redis missed (it was down) can go unseen. */
const CACHE_SECONDS = 60;
const CACHE_MS = CACHE_SECONDS * 1000;

/**
 * Sessions kept in the database (the record) and cached in Redis, shared by every instance. A lookup asks
 * Redis first and the database on a miss; while Redis is down or slow (beyond the command timeout) every
 * lookup goes to the database, so signing in and staying signed in never depend on Redis, and a Redis that
 * comes back empty only costs database reads. A revocation deletes the record first, then the cached entry.
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly record: DbSessionStore,
    private readonly redis: RedisLink,
    private readonly secret: string,
  ) {}

  private sessionKey = (hash: string) => `${this.redis.prefix}session:${hash}`;
  private userKey = (userId: number) => `${this.redis.prefix}user-sessions:${userId}`;

  create(userId: number): Promise<string> {
    return this.record.create(userId);
  }

  async userOf(rawId: string): Promise<number | undefined> {
    const hash = keyedHash(this.secret, rawId);
    const cached = await this.redis.call((client) => client.get(this.sessionKey(hash)), "a session").catch(() => null);
    if (cached !== null) return Number(cached);
    const found = await this.record.find(hash);
    if (found) await this.remember(hash, found.userId, Math.min(CACHE_MS, found.expiresAt * 1000 - Date.now()));
    return found?.userId;
  }

  /** Caches a session; listed under its user first, so a revocation of all the user's sessions finds it. */
  private async remember(hash: string, userId: number, ms: number): Promise<void> {
    if (ms <= 0) return;
    await this.redis
      .call(async (client) => {
        await client.sadd(this.userKey(userId), hash);
        await client.expire(this.userKey(userId), CACHE_SECONDS);
        await client.send("SET", [this.sessionKey(hash), String(userId), "PX", String(ms)]);
      }, "caching a session")
      .catch(() => {});
  }

  async revoke(rawId: string): Promise<void> {
    await this.record.revoke(rawId);
    const key = this.sessionKey(keyedHash(this.secret, rawId));
    await this.redis.call((client) => client.del(key), "a session revocation").catch(() => {});
  }

  async revokeAllOf(userId: number): Promise<void> {
    await this.record.revokeAllOf(userId);
    await this.redis
      .call(async (client) => {
        const hashes = await client.smembers(this.userKey(userId));
        await client.send("DEL", [...hashes.map(this.sessionKey), this.userKey(userId)]);
      }, "a session revocation")
      .catch(() => {});
  }

  close(): Promise<void> {
    return this.record.close();
  }
}
