import { readTokenQuota, readUserUsedQuota } from "../../db/queries/relay-tokens";
import type { ServiceContext } from "../context";
import type { RelayCaller } from "./caller";
import { rateLimitsOf } from "./token-rate-limit";

const UNLIMITED_USD = 100_000_000;

/** Written-through figures: charges still queued are flushed first so the answer is current. */
async function usedAndRemaining(ctx: ServiceContext, caller: RelayCaller) {
  await ctx.relay.book.flush();
  const token =
    caller.token && ctx.options.bool("DisplayTokenStatEnabled")
      ? await readTokenQuota(ctx.db, caller.token.id)
      : undefined;
  if (token) return { used: token.used_quota, remaining: token.remain_quota, token: true };
  const used = await readUserUsedQuota(ctx.db, caller.user.id);
  return { used, remaining: await ctx.relay.book.availableOf(caller.user.id), token: false };
}

/** The OpenAI-style /dashboard/billing answers: the token's quota when DisplayTokenStatEnabled, else the user's. */
export async function billingSubscription(ctx: ServiceContext, caller: RelayCaller) {
  const perUnit = ctx.options.num("QuotaPerUnit");
  const { used, remaining, token } = await usedAndRemaining(ctx, caller);
  const unlimited = token && caller.token!.unlimited_quota === 1;
  const limitUsd = unlimited ? UNLIMITED_USD : (remaining + used) / perUnit;
  const expires = token ? caller.token!.expired_time : 0;
  return {
    object: "billing_subscription",
    has_payment_method: true,
    soft_limit_usd: limitUsd,
    hard_limit_usd: limitUsd,
    system_hard_limit_usd: limitUsd,
    access_until: Math.max(expires, 0),
    rate_limits: rateLimitsOf(ctx, caller),
  };
}

export async function billingUsage(ctx: ServiceContext, caller: RelayCaller) {
  const { used } = await usedAndRemaining(ctx, caller);
  const totalUsage = (used / ctx.options.num("QuotaPerUnit")) * 100;
  return { object: "list", total_usage: totalUsage, rate_limits: rateLimitsOf(ctx, caller) };
}
