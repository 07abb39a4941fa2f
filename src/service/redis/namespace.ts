import type { Config } from "../config";
import { keyedHash } from "../crypto";

/** The database index a Redis URL selects (`redis://host:6379/2` → 2; none → 0). */
export function redisDatabaseIndex(url: string): number {
  try {
    const index = Number(new URL(url).pathname.slice(1) || "0");
    return Number.isSafeInteger(index) && index >= 0 ? index : 0;
  } catch {
    return 0;
  }
}

/**
 * The prefix of every Redis key and pub/sub channel of one deployment: REDIS_PREFIX when set, otherwise
 * `tollgate:` and a hash of the database's identity (its `database_id`, written at its first start), so two
 * deployments sharing a Redis never read each other's keys. Pub/sub channels are shared by all of Redis's
 * database indexes, so the index is part of every channel name (`redisChannel`).
 */
export function redisPrefix(config: Pick<Config, "redisPrefix">, databaseId: string): string {
  return config.redisPrefix || `tollgate:${keyedHash(databaseId, "redis-namespace").slice(0, 16)}:`;
}

/** A pub/sub channel of the deployment: its prefix, the database index of the URL, then the name. */
export const redisChannel = (prefix: string, url: string, name: string): string =>
  `${prefix}db${redisDatabaseIndex(url)}:${name}`;
