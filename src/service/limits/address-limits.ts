import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from "../rate-limit";
import type { RedisLink } from "../redis/connection";
import { sharedOrLocal } from "../redis/fallback";
import type { LimitedAction, Window } from "./settings";

/**
 * One sliding window per limited action and client address, shared by every instance when Redis is given;
 * while Redis does not answer, each instance counts in its own memory.
 */
export class AddressLimits {
  private readonly limiters: Record<LimitedAction, RateLimiter>;

  constructor(windows: Record<LimitedAction, Window>, redis?: RedisLink) {
    const entries = Object.entries(windows).map(([action, { count, windowSeconds }]) => {
      const local = new MemoryRateLimiter(count, windowSeconds);
      if (!redis) return [action, local];
      const shared = new RedisRateLimiter(redis.client, count, windowSeconds, `${redis.prefix}rate:${action}:`);
      return [action, sharedOrLocal<RateLimiter>(shared, local, redis.timeoutMs, "a rate limit")];
    });
    this.limiters = Object.fromEntries(entries) as Record<LimitedAction, RateLimiter>;
  }

  /** Records a request of `action` from `address`; false when it is over the action's limit. */
  hit(action: LimitedAction, address: string): Promise<boolean> {
    return this.limiters[action].hit(address);
  }

  close(): void {
    for (const limiter of Object.values(this.limiters)) limiter.close();
  }
}
