import type { ServiceContext } from "../context";
import type { WindowCheck } from "../limits/traffic-windows";
import type { RelayCaller } from "./caller";
import type { GroupRequestLimits } from "./model-request-limit";
import { rateLimited } from "./model-request-limit";

const MINUTE_MS = 60_000;

interface Limit {
  scope: "key" | "user";
  what: "requests" | "tokens";
  key: string;
  cap: number;
}

/** The caller's per-minute limits: the token's own, the user's own or else their group's default (TrafficLimitGroup). */
function limitsOf(ctx: ServiceContext, caller: RelayCaller): Limit[] {
  const { key, user } = rateLimitsOf(ctx, caller);
  const tokenId = caller.token?.id;
  const userId = caller.user.id;
  const all: Limit[] = [
    { scope: "key", what: "requests", key: `rpm:t:${tokenId}`, cap: key.rpm },
    { scope: "key", what: "tokens", key: `tpm:t:${tokenId}`, cap: key.tpm },
    { scope: "user", what: "requests", key: `rpm:u:${userId}`, cap: user.rpm },
    { scope: "user", what: "tokens", key: `tpm:u:${userId}`, cap: user.tpm },
  ];
  return all.filter((limit) => limit.cap > 0);
}

/** The per-minute limits that apply to the caller (0: none), as /dashboard/billing/* shows them. */
export function rateLimitsOf(ctx: ServiceContext, caller: RelayCaller) {
  const [groupRpm = 0, groupTpm = 0] = ctx.options.json<GroupRequestLimits>("TrafficLimitGroup")[caller.group] ?? [];
  return {
    key: { rpm: caller.token?.rpm_limit ?? 0, tpm: caller.token?.tpm_limit ?? 0 },
    user: { rpm: caller.user.rpm_limit || groupRpm, tpm: caller.user.tpm_limit || groupTpm },
  };
}

/** Whether the caller has any per-minute limit: the relay's cheap test (no group map read when the option is empty). */
export function trafficLimited(ctx: ServiceContext, caller: RelayCaller): boolean {
  return Boolean(
    caller.token?.rpm_limit ||
      caller.token?.tpm_limit ||
      caller.user.rpm_limit ||
      caller.user.tpm_limit ||
      ctx.options.raw("TrafficLimitGroup") !== "{}",
  );
}

const refusal = (limit: Limit) =>
  `the ${limit.scope === "key" ? "API key's" : "user's"} limit of ${limit.cap} ${limit.what} per minute is reached`;

/**
 * Requests and tokens per minute, per token and per user, before the upstream call: the call counts 1 request
 * and `estimatedTokens` (the estimate its balance hold used) in every window, atomically, or is refused with
 * 429 and Retry-After. Answers how to settle the tokens to the real use once known (undefined: no limit).
 */
export async function admitTraffic(
  ctx: ServiceContext,
  caller: RelayCaller,
  estimatedTokens: number,
): Promise<((actualTokens: number) => void) | undefined> {
  const limits = limitsOf(ctx, caller);
  if (limits.length === 0) return undefined;
  const amount = (limit: Limit) => (limit.what === "requests" ? 1 : Math.max(1, Math.round(estimatedTokens)));
  const checks: WindowCheck[] = limits.map((l) => ({ key: l.key, cap: l.cap, amount: amount(l), windowMs: MINUTE_MS }));
  const verdict = await ctx.traffic.take(checks);
  if (!verdict.ok) {
    const limit = limits[verdict.index]!;
    if (limit.what === "tokens" && amount(limit) > limit.cap)
      throw rateLimited(`${refusal(limit)}: this request alone is estimated at ${amount(limit)} tokens`, MINUTE_MS);
    throw rateLimited(refusal(limit), verdict.waitMs);
  }
  const tokenWindows = limits.filter((l) => l.what === "tokens");
  return (actualTokens) => {
    for (const l of tokenWindows)
      void ctx.traffic.settle(l.key, verdict.entry, amount(l), Math.max(0, Math.round(actualTokens))).catch(() => {});
  };
}
