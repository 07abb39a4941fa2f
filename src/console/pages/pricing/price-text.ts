import { formatCount } from "../../../shared/quota-format";
import type { ModelPrice } from "./pricing";

/** How prices read: US dollars, or quota units (dollars × quota per unit). */
export type PriceUnit = "currency" | "quota";

/** Dollars with at least 2 and at most 4 decimals; quota units as k/M/B. */
export function amountText(dollars: number, unit: PriceUnit, quotaPerUnit: number): string {
  if (unit === "quota") return formatCount(Math.round(dollars * quotaPerUnit));
  return `$${dollars.toFixed(4).replace(/0{1,2}$/, "")}`;
}

/** The lines of a price cell: input and output per 1M tokens, or one per-call price. */
export function priceLines(
  price: ModelPrice,
  unit: PriceUnit,
  quotaPerUnit: number,
): { input?: string; output?: string; call?: string } {
  if (price.kind === "per-call") return { call: amountText(price.call, unit, quotaPerUnit) };
  return { input: amountText(price.input, unit, quotaPerUnit), output: amountText(price.output, unit, quotaPerUnit) };
}
