import { RedisClient } from "bun";

/** Sliding-window limiter: at most `limit` hits per `windowSeconds` for one key. */
export interface RateLimiter {
  /** Records a hit and answers whether it is within the limit. */
  hit(key: string): Promise<boolean>;
  close(): void;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly sweeper: Timer;

  constructor(
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(key: string): Promise<boolean> {
    const now = Date.now();
    const since = now - this.windowSeconds * 1000;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    const allowed = list.length < this.limit;
    if (allowed) list.push(now);
    this.hits.set(key, list);
    return allowed;
  }

  private sweep(): void {
    const since = Date.now() - this.windowSeconds * 1000;
    for (const [key, list] of this.hits) {
      if (list.every((t) => t <= since)) this.hits.delete(key);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

/** The same window shared by every instance, kept in a Redis sorted set per key. */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisClient;
  private readonly ownsClient: boolean;

  /** `redis`: a URL to connect to, or a client shared with others (then left open by close()). */
  constructor(
    redis: string | RedisClient,
    private readonly limit: number,
    private readonly windowSeconds: number,
    private readonly prefix = "tollgate:rate:",
  ) {
    this.ownsClient = typeof redis === "string";
    this.redis = typeof redis === "string" ? new RedisClient(redis) : redis;
  }

  async hit(key: string): Promise<boolean> {
    const script = `
      redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])
      if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
      redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
      redis.call('EXPIRE', KEYS[1], ARGV[5])
      return 1`;
    const now = Date.now();
    const member = `${now}-${Math.random()}`;
    const windowMs = this.windowSeconds * 1000;
    const args = [
      script,
      "1",
      this.prefix + key,
      String(now),
      String(windowMs),
      String(this.limit),
      member,
      String(this.windowSeconds),
    ];
    return (await this.redis.send("EVAL", args)) === 1;
  }

  close(): void {
    if (this.ownsClient) this.redis.close();
  }
}
