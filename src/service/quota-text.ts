import { formatQuota, type QuotaDisplay, quotaDisplayOf } from "../shared/quota-format";
import type { ServiceContext } from "./context";

/** The site's quota display (DisplayInCurrencyEnabled, QuotaDisplayCurrency, QuotaPerUnit, USDExchangeRate). */
export function quotaDisplayFor(ctx: ServiceContext): QuotaDisplay {
  const o = ctx.options;
  return quotaDisplayOf({
    display_in_currency: o.bool("DisplayInCurrencyEnabled"),
    quota_display_currency: o.raw("QuotaDisplayCurrency"),
    quota_per_unit: o.num("QuotaPerUnit"),
    usd_exchange_rate: o.num("USDExchangeRate"),
  });
}

/** Quota as the site shows it, for messages, log contents, the CLI and the TUI. */
export const quotaText = (ctx: ServiceContext, quota: number): string => formatQuota(quota, quotaDisplayFor(ctx));
