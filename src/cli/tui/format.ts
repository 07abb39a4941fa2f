import { quotaText } from "../../service/quota-text";
import type { ServiceContext } from "../../service/context";
import { formatCount } from "../../shared/quota-format";

/** Quota as the console shows it: currency or a count, by the site's options. */
export const quotaOf = (ctx: ServiceContext, quota: number): string => quotaText(ctx, quota);

export const countOf = (n: number): string => formatCount(n);

const two = (n: number) => String(n).padStart(2, "0");

/** A unix time as local HH:MM:SS. */
export function clockOf(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

export const percentOf = (ratio: number): string => `${(ratio * 100).toFixed(1)}%`;
