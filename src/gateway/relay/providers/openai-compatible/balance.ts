import type { BalanceQuery } from "../types";
import { bearerHeaders } from "./bearer";

const DAY = 86400;
const dateOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** OpenAI's dashboard billing calls: the subscription's hard limit (USD) less the usage of the last 100 days (cents). */
export const dashboardBalance: BalanceQuery = {
  types: new Set([1]),
  urls: (base, now) => [
    `${base}/v1/dashboard/billing/subscription`,
    `${base}/v1/dashboard/billing/usage?start_date=${dateOf(now - 100 * DAY)}&end_date=${dateOf(now + DAY)}`,
  ],
  headers: bearerHeaders,
  balanceOf([subscription, usage]) {
    const limit = subscription?.hard_limit_usd;
    const used = usage?.total_usage;
    return typeof limit === "number" && typeof used === "number" ? limit - used / 100 : undefined;
  },
};
