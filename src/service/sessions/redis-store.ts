import { RedisClient } from "bun";
import { keyedHash, randomAlphanumeric } from "../crypto";
import type { SessionStore } from "./store";

/**
 * Sessions in Redis: shared by every instance, expiring by TTL; a per-user set allows revoking them all.
 * Keys live under a namespace derived from the secret, so deployments sharing one Redis (each with its own
 * database, where user ids repeat) never revoke each other's sessions.
 */
export class RedisSessionStore implements SessionStore {
  private readonly redis: RedisClient;
  private readonly prefix: string;

  constructor(
    url: string,
    private readonly secret: string,
    private readonly ttlSeconds: number,
    prefix = "tollgate:",
  ) {
    this.redis = new RedisClient(url);
    this.prefix = `${prefix}${keyedHash(secret, "redis-namespace").slice(0, 16)}:`;
  }

  private sessionKey = (hash: string) => `${this.prefix}session:${hash}`;
  private userKey = (userId: number) => `${this.prefix}user-sessions:${userId}`;

  async create(userId: number): Promise<string> {
    const raw = randomAlphanumeric(43);
    const hash = keyedHash(this.secret, raw);
    await this.redis.send("SET", [this.sessionKey(hash), String(userId), "EX", String(this.ttlSeconds)]);
    await this.redis.sadd(this.userKey(userId), hash);
    await this.redis.expire(this.userKey(userId), this.ttlSeconds);
    return raw;
  }

  async userOf(rawId: string): Promise<number | undefined> {
    const value = await this.redis.get(this.sessionKey(keyedHash(this.secret, rawId)));
    return value === null ? undefined : Number(value);
  }

  async revoke(rawId: string): Promise<void> {
    await this.redis.del(this.sessionKey(keyedHash(this.secret, rawId)));
  }

  async revokeAllOf(userId: number): Promise<void> {
    const hashes = await this.redis.smembers(this.userKey(userId));
    const keys = [...hashes.map(this.sessionKey), this.userKey(userId)];
    await this.redis.send("DEL", keys);
  }

  async close(): Promise<void> {
    this.redis.close();
  }
}
