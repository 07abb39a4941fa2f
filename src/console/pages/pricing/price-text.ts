import { formatCount, formatUsd } from "../../../shared/quota-format";
import type { ModelPrice } from "./pricing";

/** How prices read: US dollars, or quota units (dollars × quota per unit). */
export type PriceUnit = "currency" | "quota";

/** Dollars through `money` (the site's currency rule); quota units as k/M/B. */
export function amountText(
  dollars: number,
  unit: PriceUnit,
  quotaPerUnit: number,
  money: (usd: number) => string = formatUsd,
): string {
  if (unit === "quota") return formatCount(Math.round(dollars * quotaPerUnit));
  return money(dollars);
}

/** The lines of a price cell: input and output per 1M tokens, or one per-call price. */
export function priceLines(
  price: ModelPrice,
  unit: PriceUnit,
  quotaPerUnit: number,
  money: (usd: number) => string = formatUsd,
): { input?: string; output?: string; call?: string } {
  const text = (dollars: number) => amountText(dollars, unit, quotaPerUnit, money);
  if (price.kind === "per-call") return { call: text(price.call) };
  return { input: text(price.input), output: text(price.output) };
}
