import type { Price } from "./pricing";

/** Token counts of one call as the upstream reported them (or as we counted them). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Part of promptTokens served from the upstream's prompt cache. */
  cachedTokens: number;
  /** Part of promptTokens written to the upstream's prompt cache (Claude), billed at the create-cache ratio. */
  cacheWriteTokens?: number;
}

/** Half away from zero, as the dialect rounds. */
const round = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/**
 * The exact cost in quota units:
 * ratio: round(group × model × (prompt − cached − written + cached × cacheRatio + written × createCacheRatio
 * + completion × completionRatio)), at least 1 when anything was used and the model is not free;
 * per call: round(price × QuotaPerUnit × group).
 */
export function quotaFor(price: Price, usage: Usage, quotaPerUnit: number): number {
  if (price.kind === "per-call") return round(price.modelPrice * quotaPerUnit * price.groupRatio);
  const { promptTokens, completionTokens } = usage;
  if (promptTokens + completionTokens === 0) return 0;
  const cached = Math.min(usage.cachedTokens, promptTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, promptTokens - cached);
  const weighted =
    promptTokens -
    cached -
    written +
    cached * price.cacheRatio +
    written * price.createCacheRatio +
    completionTokens * price.completionRatio;
  const quota = round(weighted * price.modelRatio * price.groupRatio);
  const free = price.modelRatio === 0 || price.groupRatio === 0;
  return !free && quota <= 0 ? 1 : quota;
}

/**
 * What to hold before calling upstream: the prompt estimate (at least PreConsumedQuota tokens) plus the
 * completion budget, priced like the final bill so an honest max_tokens bounds the cost.
 */
export function reservationFor(
  price: Price,
  estimate: { promptTokens: number; maxCompletionTokens: number },
  preConsumedTokens: number,
  quotaPerUnit: number,
): number {
  if (price.kind === "per-call")
    return quotaFor(price, { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, quotaPerUnit);
  const prompt = Math.max(estimate.promptTokens, preConsumedTokens);
  return quotaFor(
    price,
    { promptTokens: prompt, completionTokens: estimate.maxCompletionTokens, cachedTokens: 0 },
    quotaPerUnit,
  );
}
