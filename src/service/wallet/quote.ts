import type { UserRow } from "../../db/schema";
import { QUOTA_PER_UNIT } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { integerOf, type Input } from "../input";
import { moneyText, toCents } from "./money";

export const MAX_TOP_UP_QUOTA = 1_000_000 * QUOTA_PER_UNIT;
export const AMOUNT_TOO_LARGE = "the top-up amount is too large";
export const MONEY_TOO_LOW = "the amount to pay is too low";
export const belowMinimum = (minimum: number) => `the top-up amount cannot be less than ${minimum}`;

export interface TopUpQuote {
  /** As asked, in display units: US dollars when quota is shown as currency, else quota units. */
  amount: number;
  /** The quota the top-up credits. */
  quota: number;
  /** What it costs, in cents of the site's currency. */
  cents: number;
}

function groupRatio(ctx: ServiceContext, group: string): number {
  const ratios = ctx.options.json<Record<string, number>>("TopupGroupRatio");
  return Object.hasOwn(ratios, group) ? ratios[group]! : 1;
}

/**
 * A whole `amount` in display units (at least MinTopUp dollars' worth) → quota = dollars × QuotaPerUnit;
 * money = dollars × Price × TopupGroupRatio[user's group] (1 when the group has none), at least one cent.
 */
export function quoteTopUp(ctx: ServiceContext, user: UserRow, value: unknown): TopUpQuote {
  const o = ctx.options;
  const perUnit = o.num("QuotaPerUnit");
  const quotaPerAmount = o.bool("DisplayInCurrencyEnabled") ? perUnit : 1;
  const amount = integerOf(value, "amount");
  const minimum = Math.ceil((o.num("MinTopUp") * perUnit) / quotaPerAmount);
  if (amount < minimum) refuse(belowMinimum(minimum));
  const quota = Math.round(amount * quotaPerAmount);
  if (quota > MAX_TOP_UP_QUOTA) refuse(AMOUNT_TOO_LARGE);
  const cents = toCents((quota / perUnit) * o.num("Price") * groupRatio(ctx, user.group));
  if (cents < 1) refuse(MONEY_TOO_LOW);
  return { amount, quota, cents };
}

/** POST /api/user/amount: what a top-up of `amount` costs, as "7.30". */
export const topUpPrice = (ctx: ServiceContext, user: UserRow, input: Input): string =>
  moneyText(quoteTopUp(ctx, user, input.amount).cents);
