import type { Pricing, PricingRow } from "../../../shared/views/pricing";
import { wholeReply } from "./whole-reply";

/** GET /api/pricing; a signed-in person sees their own groups (New-Api-User), a visitor a new account's. */
export async function loadPricing(): Promise<Pricing | undefined> {
  const reply = await wholeReply<Partial<Pricing>>("/api/pricing");
  return (
    reply && { data: reply.data ?? [], group_ratio: reply.group_ratio ?? {}, usable_group: reply.usable_group ?? {} }
  );
}

/** A price in US dollars: per 1M tokens (input and output) for ratio models, per call for fixed prices. */
export type ModelPrice = { kind: "per-token"; input: number; output: number } | { kind: "per-call"; call: number };

/**
 * Spec §9: the price per 1M tokens is model ratio × 2 × group ratio; the completion price is that times
 * the completion ratio; a fixed model price (per call) overrides, times the group ratio.
 */
export function priceOf(model: PricingRow, groupRatio: number): ModelPrice {
  if (model.quota_type === 1) return { kind: "per-call", call: model.model_price * groupRatio };
  const input = model.model_ratio * 2 * groupRatio;
  return { kind: "per-token", input, output: input * model.completion_ratio };
}

/** daisyUI badge colour of a ratio tag: above 5 red, above 3 orange, above 1 blue, else green. */
export function ratioBadge(ratio: number): string {
  if (ratio > 5) return "badge-error";
  if (ratio > 3) return "badge-warning";
  if (ratio > 1) return "badge-info";
  return "badge-success";
}
