import { describe, expect, test } from "bun:test";
import {
  formatCount,
  formatMoney,
  formatQuota,
  type QuotaDisplay,
  quotaDisplayOf,
  quotaFromAmount,
} from "../../src/shared/quota-format";

const usd = quotaDisplayOf({ display_in_currency: true, quota_per_unit: 500_000, usd_exchange_rate: 7.3 });
const cny = quotaDisplayOf({
  display_in_currency: true,
  quota_display_currency: "CNY",
  quota_per_unit: 500_000,
  usd_exchange_rate: 7.3,
});
const tokens = quotaDisplayOf({ display_in_currency: false, quota_display_currency: "CNY" });

describe("money: one rule for console, CLI and TUI (issue #22)", () => {
  test("zero is $0.00; a non-zero amount never reads as zero", () => {
    expect(formatQuota(0, usd)).toBe("$0.00");
    expect(formatQuota(1, usd)).toBe("$0.000002");
    expect(formatQuota(2500, usd)).toBe("$0.005");
    expect(formatQuota(61.5, usd)).toBe("$0.000123");
    expect(formatQuota(123_456, usd)).toBe("$0.25");
  });

  test("from one cent up, two decimals (spec: quota / QuotaPerUnit with 2 decimals)", () => {
    expect(formatQuota(5000, usd)).toBe("$0.01");
    expect(formatQuota(500_000, usd)).toBe("$1.00");
    expect(formatQuota(1_234_567, usd)).toBe("$2.47");
  });

  test("the sign goes before the currency symbol", () => {
    expect(formatQuota(-50_000, usd)).toBe("-$0.10");
    expect(formatQuota(-1, usd)).toBe("-$0.000002");
    expect(formatQuota(-50_000, cny)).toBe("-¥0.73");
    expect(formatQuota(-12_345, tokens)).toBe("-12.35k");
  });

  test("huge amounts are grouped and never turn exponential", () => {
    expect(formatQuota(Number.MAX_SAFE_INTEGER, usd)).toBe("$18,014,398,509.48");
    expect(formatQuota(1e30, usd)).toBe("$2,000,000,000,000,000,000,000,000.00");
    expect(formatQuota(5e15, tokens)).toBe("5000000B");
  });

  test("CNY is the dollar amount times USDExchangeRate", () => {
    expect(formatQuota(500_000, cny)).toBe("¥7.30");
    expect(formatQuota(1, cny)).toBe("¥0.0000146");
    expect(formatMoney(0.5, cny)).toBe("¥3.65");
    expect(formatMoney(0.5, usd)).toBe("$0.50");
  });

  test("tokens: the spec's k/M/B rule for raw quota", () => {
    expect(formatQuota(0, tokens)).toBe("0");
    expect(formatQuota(1, tokens)).toBe("1");
    expect(formatQuota(9999, tokens)).toBe("9999");
    expect(formatQuota(10_000, tokens)).toBe("10k");
    expect(formatQuota(1_500_000, tokens)).toBe("1.5M");
    expect(formatQuota(2_000_000_000, tokens)).toBe("2B");
    expect(formatCount(12.345)).toBe("12.35");
  });

  test("a custom QuotaPerUnit is honoured; missing or bad settings fall back to dollars at 500000", () => {
    const custom = quotaDisplayOf({ display_in_currency: true, quota_per_unit: 1000 });
    expect(formatQuota(1500, custom)).toBe("$1.50");
    const fallback: QuotaDisplay = quotaDisplayOf({ quota_per_unit: 0, usd_exchange_rate: -1 });
    expect(fallback).toEqual({ kind: "currency", currency: "USD", quotaPerUnit: 500_000, usdExchangeRate: 1 });
    expect(quotaDisplayOf({ quota_display_currency: "EUR" })).toMatchObject({ currency: "USD" });
  });

  test("money typed in the display's currency becomes whole quota units", () => {
    expect(quotaFromAmount(1, usd)).toBe(500_000);
    expect(quotaFromAmount(7.3, cny)).toBe(500_000);
    expect(quotaFromAmount(100, tokens)).toBe(100);
    expect(quotaFromAmount(0.000001, usd)).toBe(1);
  });
});
