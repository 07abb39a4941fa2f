import type { RedisClient } from "bun";
import { backoffSeconds, backoffSteps } from "./backoff-rule";
import type { LoginBackoff } from "./settings";

/** Failures are forgotten this long after the last attempt. */
const FORGET_AFTER_SECONDS = 24 * 3600;

/**
 * The sign-in backoff's memory, per key: the attempts counted since the last success and when the next may
 * be made; and marks (the addresses an account signed in from).
 */
export interface SignInFailures {
  /** Counts an attempt on `key` and answers 0, or, when the next may not be made yet, the seconds left (not counted). */
  attempt(key: string): Promise<number>;
  /** Forgets the attempts counted on these keys. */
  clear(keys: string[]): Promise<void>;
  mark(key: string, ttlSeconds: number): Promise<void>;
  marked(key: string): Promise<boolean>;
  close(): void;
}

const secondsUntil = (at: number, now: number) => Math.ceil((at - now) / 1000);

export class MemorySignInFailures implements SignInFailures {
  private readonly counts = new Map<string, { attempts: number; nextAt: number; lastAt: number }>();
  private readonly marks = new Map<string, number>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000);

  constructor(private readonly backoff: LoginBackoff) {
    this.sweeper.unref();
  }

  async attempt(key: string): Promise<number> {
    const now = Date.now();
    const held = this.counts.get(key);
    const state =
      held && held.lastAt > now - FORGET_AFTER_SECONDS * 1000 ? held : { attempts: 0, nextAt: 0, lastAt: 0 };
    if (now < state.nextAt) return secondsUntil(state.nextAt, now);
    const attempts = state.attempts + 1;
    this.counts.set(key, { attempts, nextAt: now + backoffSeconds(attempts, this.backoff) * 1000, lastAt: now });
    return 0;
  }

  async clear(keys: string[]): Promise<void> {
    for (const key of keys) this.counts.delete(key);
  }

  async mark(key: string, ttlSeconds: number): Promise<void> {
    this.marks.set(key, Date.now() + ttlSeconds * 1000);
  }

  async marked(key: string): Promise<boolean> {
    return (this.marks.get(key) ?? 0) > Date.now();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, state] of this.counts)
      if (state.lastAt <= now - FORGET_AFTER_SECONDS * 1000) this.counts.delete(key);
    for (const [key, until] of this.marks) if (until <= now) this.marks.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

/** ARGV: now (ms), forget-after (s), free failures, then the waits (s) after them, the last repeating. */
const ATTEMPT_SCRIPT = `
  local now = tonumber(ARGV[1])
  local nextAt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
  if now < nextAt then return math.ceil((nextAt - now) / 1000) end
  local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
  local free = tonumber(ARGV[3])
  local wait = 0
  if attempts >= free then wait = tonumber(ARGV[3 + math.min(attempts - free + 1, #ARGV - 3)]) end
  redis.call('HSET', KEYS[1], 'next', string.format('%.0f', now + wait * 1000))
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  return 0`;

/** The same memory shared by every instance: a hash per key, a plain key per mark. */
export class RedisSignInFailures implements SignInFailures {
  private readonly steps: string[];

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly backoff: LoginBackoff,
  ) {
    this.steps = backoffSteps(backoff).map(String);
  }

  async attempt(key: string): Promise<number> {
    const args = [String(Date.now()), String(FORGET_AFTER_SECONDS), String(this.backoff.freeFailures), ...this.steps];
    return Number(await this.redis.send("EVAL", [ATTEMPT_SCRIPT, "1", this.prefix + key, ...args]));
  }

  async clear(keys: string[]): Promise<void> {
    if (keys.length > 0)
      await this.redis.send(
        "DEL",
        keys.map((key) => this.prefix + key),
      );
  }

  async mark(key: string, ttlSeconds: number): Promise<void> {
    await this.redis.send("SET", [this.prefix + key, "1", "EX", String(ttlSeconds)]);
  }

  async marked(key: string): Promise<boolean> {
    return (await this.redis.send("EXISTS", [this.prefix + key])) === 1;
  }

  close(): void {}
}
