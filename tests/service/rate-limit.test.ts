import { afterAll, afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from "../../src/service/rate-limit";
import { TEST_REDIS_URL } from "../support/databases";

// The limiters keep no database state, so they run once rather than per SQL dialect.
const KINDS: [string, (limit: number, windowSeconds: number) => RateLimiter][] = [
  ["memory", (limit, windowSeconds) => new MemoryRateLimiter(limit, windowSeconds)],
  [
    "Redis",
    (limit, windowSeconds) =>
      new RedisRateLimiter(TEST_REDIS_URL, limit, windowSeconds, `tollgate-test:${crypto.randomUUID()}:`),
  ],
];

describe.each(KINDS)("the %s rate limiter: a sliding window of `limit` hits per key", (_kind, make) => {
  const made: RateLimiter[] = [];
  const limiter = (limit: number, windowSeconds: number) => {
    const created = make(limit, windowSeconds);
    made.push(created);
    return created;
  };
  afterEach(() => setSystemTime());
  afterAll(() => {
    for (const l of made) l.close();
  });

  const hits = async (l: RateLimiter, key: string, n: number) => {
    const answers: boolean[] = [];
    for (let i = 0; i < n; i++) answers.push(await l.hit(key));
    return answers;
  };

  test("allows `limit` hits in the window, then refuses", async () => {
    const l = limiter(3, 60);
    expect(await hits(l, "a", 5)).toEqual([true, true, true, false, false]);
  });

  test("each key has its own window", async () => {
    const l = limiter(1, 60);
    expect(await hits(l, "a", 2)).toEqual([true, false]);
    expect(await l.hit("b")).toBe(true);
  });

  test("a hit older than the window no longer counts, and refused hits do not extend it", async () => {
    const l = limiter(2, 10);
    const start = Date.now();
    setSystemTime(start);
    expect(await hits(l, "a", 2)).toEqual([true, true]);
    setSystemTime(start + 5_000);
    expect(await hits(l, "a", 3)).toEqual([false, false, false]);
    setSystemTime(start + 10_001);
    expect(await hits(l, "a", 3)).toEqual([true, true, false]);
  });
});
