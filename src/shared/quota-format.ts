import { QUOTA_PER_UNIT } from "./constants";

/** The currencies quota can be shown in: US dollars, or yuan at the site's USDExchangeRate. */
export const DISPLAY_CURRENCIES = ["USD", "CNY"] as const;
export type DisplayCurrency = (typeof DISPLAY_CURRENCIES)[number];

const SYMBOLS: Record<DisplayCurrency, string> = { USD: "$", CNY: "¥" };

/** How the site shows quota: a currency amount, or the raw units as a k/M/B count. */
export type QuotaDisplay =
  | { kind: "tokens" }
  | { kind: "currency"; currency: DisplayCurrency; quotaPerUnit: number; usdExchangeRate: number };

/** The display settings as GET /api/status (or the options behind it) carry them. */
export interface QuotaDisplaySettings {
  display_in_currency?: boolean;
  quota_display_currency?: string;
  quota_per_unit?: number;
  usd_exchange_rate?: number;
}

/** The display the settings ask for; missing or bad values fall back to US dollars at 500000 units each. */
export function quotaDisplayOf(settings: QuotaDisplaySettings | null | undefined): QuotaDisplay {
  if (settings?.display_in_currency === false) return { kind: "tokens" };
  const currency = settings?.quota_display_currency === "CNY" ? "CNY" : "USD";
  const perUnit = settings?.quota_per_unit;
  const rate = settings?.usd_exchange_rate;
  return {
    kind: "currency",
    currency,
    quotaPerUnit: perUnit && perUnit > 0 ? perUnit : QUOTA_PER_UNIT,
    usdExchangeRate: rate && rate > 0 ? rate : 1,
  };
}

export const DEFAULT_QUOTA_DISPLAY = quotaDisplayOf(null);

/** Quota for people, by the site's display: `$0.000123`, `-¥0.73`, or `12.5k`. */
export function formatQuota(quota: number, display: QuotaDisplay): string {
  if (display.kind === "tokens") return formatCount(quota);
  return formatMoney(quota / display.quotaPerUnit, display);
}

/** A US-dollar amount (a price, a channel's balance) in the site's currency; token displays keep dollars. */
export function formatMoney(usd: number, display: QuotaDisplay): string {
  if (display.kind === "currency" && display.currency === "CNY") return moneyText(usd * display.usdExchangeRate, "¥");
  return moneyText(usd, "$");
}

/** Dollars as written, whatever the site displays. */
export const formatUsd = (usd: number): string => moneyText(usd, "$");

const cents = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const small = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3, useGrouping: false });

/**
 * Two decimals from one cent up (spec: 'quota divided by QuotaPerUnit with 2 decimals'); under a cent,
 * three significant digits so a non-zero amount never reads as zero. The sign goes before the symbol.
 */
function moneyText(amount: number, symbol: string): string {
  if (!Number.isFinite(amount)) return `${symbol}-`;
  const abs = Math.abs(amount);
  const digits = abs === 0 || abs >= 0.01 ? cents.format(abs) : small.format(abs);
  return `${amount < 0 ? "-" : ""}${symbol}${digits}`;
}

/** A count as the spec shows raw quota: from 10k as k, from 1M as M, from 1B as B, at most 2 decimals. */
export function formatCount(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${trim(n / 1e9)}B`;
  if (abs >= 1e6) return `${trim(n / 1e6)}M`;
  if (abs >= 1e4) return `${trim(n / 1e3)}k`;
  return trim(n);
}

const trim = (x: number) => x.toFixed(2).replace(/\.?0+$/, "");

/** The symbol a money input of this display is in, or undefined for raw units. */
export const currencySymbolOf = (display: QuotaDisplay): string | undefined =>
  display.kind === "currency" ? SYMBOLS[display.currency] : undefined;

/** Money typed in the display's currency, as quota units (rounded to a whole unit); raw units when tokens. */
export function quotaFromAmount(amount: number, display: QuotaDisplay): number {
  if (display.kind === "tokens") return Math.round(amount);
  const usd = display.currency === "CNY" ? amount / display.usdExchangeRate : amount;
  return Math.round(usd * display.quotaPerUnit);
}
