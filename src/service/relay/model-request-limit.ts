import type { ServiceContext } from "../context";
import type { WindowCheck } from "../limits/traffic-windows";
import { RelayError } from "./errors";

/** ModelRequestRateLimitGroup: per group, [all requests, successful requests] per window (0 total = no cap). */
export type GroupRequestLimits = Record<string, [number, number]>;

interface UserWindow {
  minutes: number;
  total: number;
  success: number;
}

/** The window of a caller's group: the group's override when listed, else the site's. */
function windowOf(ctx: ServiceContext, group: string): UserWindow {
  const o = ctx.options;
  const override = o.json<GroupRequestLimits>("ModelRequestRateLimitGroup")[group];
  const [total, success] = override ?? [
    o.num("ModelRequestRateLimitCount"),
    o.num("ModelRequestRateLimitSuccessCount"),
  ];
  return { minutes: o.num("ModelRequestRateLimitDurationMinutes"), total, success };
}

const totalKey = (userId: number) => `mrl:all:${userId}`;
const successKey = (userId: number) => `mrl:ok:${userId}`;

export const successLimitMessage = (w: UserWindow) =>
  `you have reached the request limit: at most ${w.success} successful requests in ${w.minutes} minutes`;
export const totalLimitMessage = (w: UserWindow) =>
  `you have reached the total request limit: at most ${w.total} requests in ${w.minutes} minutes, failed ones included; please check that your requests are correct`;

export const rateLimited = (message: string, waitMs: number) =>
  new RelayError(429, message, "rate_limit_exceeded", "rate_limit_error", Math.max(1, Math.ceil(waitMs / 1000)));

/**
 * The per-user model request limit (compat §10, ModelRequestRateLimit*): before a relayed call, refused with 429
 * and Retry-After when the user's window already holds `total` requests (failures included) or `success`
 * successful ones; the call itself is counted in the first. Answers undefined (no work) when the limit is off;
 * else a function to call once the call succeeded.
 */
export async function admitModelRequest(
  ctx: ServiceContext,
  userId: number,
  group: string,
): Promise<(() => void) | undefined> {
  if (!ctx.options.bool("ModelRequestRateLimitEnabled")) return undefined;
  const w = windowOf(ctx, group);
  const windowMs = w.minutes * 60_000;
  const checks: WindowCheck[] = [{ key: successKey(userId), cap: w.success, amount: 0, windowMs }];
  if (w.total > 0) checks.unshift({ key: totalKey(userId), cap: w.total, amount: 1, windowMs });
  const verdict = await ctx.traffic.take(checks);
  if (!verdict.ok) {
    const total = w.total > 0 && verdict.index === 0;
    throw rateLimited(total ? totalLimitMessage(w) : successLimitMessage(w), verdict.waitMs);
  }
  return () => {
    void ctx.traffic.take([{ key: successKey(userId), cap: 0, amount: 1, windowMs }]).catch(() => {});
  };
}
