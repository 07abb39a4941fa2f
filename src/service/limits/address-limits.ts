import type { RedisClient } from "bun";
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from "../rate-limit";
import type { LimitedAction, Window } from "./settings";

/** One sliding window per limited action and client address, shared by every instance when Redis is given. */
export class AddressLimits {
  private readonly limiters: Record<LimitedAction, RateLimiter>;

  constructor(windows: Record<LimitedAction, Window>, redis?: { client: RedisClient; prefix: string }) {
    const entries = Object.entries(windows).map(([action, { count, windowSeconds }]) => [
      action,
      redis
        ? new RedisRateLimiter(redis.client, count, windowSeconds, `${redis.prefix}rate:${action}:`)
        : new MemoryRateLimiter(count, windowSeconds),
    ]);
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
