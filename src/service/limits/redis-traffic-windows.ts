import type { RedisClient } from "bun";
import { newEntryId, type TrafficWindows, type WindowCheck, type WindowVerdict } from "./traffic-windows";

/**
 * Each window a sorted set of "<entry>|<amount>" scored by the time (Redis's own clock, so every instance agrees)
 * in ms. One script checks all the windows and records in all of them: one round trip, atomic.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = ARGV[1]
for i = 1, #KEYS do
  local cap = tonumber(ARGV[3 * i - 1])
  local amount = tonumber(ARGV[3 * i])
  local window = tonumber(ARGV[3 * i + 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  if cap > 0 then
    local sum = 0
    for _, m in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
      sum = sum + tonumber(string.match(m, '|(-?%d+)$'))
    end
    local need = amount
    if need < 1 then need = 1 end
    if sum + need > cap then
      local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
      local wait = window
      if oldest[2] then wait = tonumber(oldest[2]) + window - now end
      return {i, wait}
    end
  end
end
for i = 1, #KEYS do
  local amount = tonumber(ARGV[3 * i])
  if amount ~= 0 then
    redis.call('ZADD', KEYS[i], now, id .. '|' .. amount)
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[3 * i + 1]))
  end
end
return {0, 0}`;

const SETTLE = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1] .. '|' .. ARGV[2])
if not score then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1] .. '|' .. ARGV[2])
redis.call('ZADD', KEYS[1], score, ARGV[1] .. '|' .. ARGV[3])
return 1`;

/** The windows shared by every instance through Redis. */
export class RedisTrafficWindows implements TrafficWindows {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  async take(checks: WindowCheck[]): Promise<WindowVerdict> {
    const id = newEntryId();
    const args = [TAKE, String(checks.length), ...checks.map((c) => this.prefix + c.key), id];
    for (const c of checks) args.push(String(c.cap), String(Math.round(c.amount)), String(c.windowMs));
    const [index, waitMs] = (await this.redis.send("EVAL", args)) as [number, number];
    return index === 0 ? { ok: true, entry: id } : { ok: false, index: index - 1, waitMs };
  }

  async settle(key: string, entry: string, reserved: number, actual: number): Promise<void> {
    const amounts = [String(Math.round(reserved)), String(Math.round(actual))];
    await this.redis.send("EVAL", [SETTLE, "1", this.prefix + key, entry, ...amounts]);
  }

  close(): void {}
}
