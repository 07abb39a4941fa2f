import type { ServiceContext } from "../context";
import { ServiceError } from "../errors";

/** The group-independent part of a model's price: per call (ModelPrice wins) or per token (ratios). */
export type ModelFactors =
  | { kind: "ratio"; modelRatio: number; completionRatio: number; cacheRatio: number; createCacheRatio: number }
  | { kind: "per-call"; modelPrice: number };

/** The group part: the using group's ratio, or GroupGroupRatio for (user group, using group) when set. */
export interface GroupFactors {
  groupRatio: number;
  /** GroupGroupRatio for (user group, using group); -1 when none applies. */
  userGroupRatio: number;
}

/** How one call of a model in a group is priced, with every factor recorded for the log. */
export type Price = ModelFactors & GroupFactors;

type RatioMap = Record<string, number>;

export class UnpricedModelError extends ServiceError {
  constructor(readonly model: string) {
    super(`model ${model} has no price configured by the administrator yet, so it cannot be used`, 400);
  }
}

/** Cache writes cost this many prompt tokens each unless CreateCacheRatio says otherwise (the dialect's default). */
export const DEFAULT_CREATE_CACHE_RATIO = 1.25;

/** The factors of `model` from ModelPrice, ModelRatio, CompletionRatio, CacheRatio and CreateCacheRatio; undefined when unpriced. */
export function modelFactorsOf(ctx: ServiceContext, model: string): ModelFactors | undefined {
  const o = ctx.options;
  const modelPrice = o.json<RatioMap>("ModelPrice")[model];
  if (typeof modelPrice === "number") return { kind: "per-call", modelPrice };
  const modelRatio = o.json<RatioMap>("ModelRatio")[model];
  if (typeof modelRatio !== "number") return undefined;
  return {
    kind: "ratio",
    modelRatio,
    completionRatio: o.json<RatioMap>("CompletionRatio")[model] ?? 1,
    cacheRatio: o.json<RatioMap>("CacheRatio")[model] ?? 1,
    createCacheRatio: o.json<RatioMap>("CreateCacheRatio")[model] ?? DEFAULT_CREATE_CACHE_RATIO,
  };
}

/** The group ratio a user of `userGroup` pays through `usingGroup` (an unknown group costs 1). */
export function groupFactorsOf(ctx: ServiceContext, usingGroup: string, userGroup: string): GroupFactors {
  const o = ctx.options;
  const special = o.json<Record<string, RatioMap>>("GroupGroupRatio")[userGroup]?.[usingGroup];
  const userGroupRatio = typeof special === "number" ? special : -1;
  const plain = o.json<RatioMap>("GroupRatio")[usingGroup];
  const groupRatio = userGroupRatio >= 0 ? userGroupRatio : typeof plain === "number" ? plain : 1;
  return { groupRatio, userGroupRatio };
}

/**
 * The price of `model` when a user of `userGroup` calls it through `usingGroup`. Fails closed: a model
 * with neither a ModelPrice nor a ModelRatio entry is refused, never billed as 0 by accident; a model is
 * free only when an administrator sets its price or ratio to 0.
 */
export function priceOf(ctx: ServiceContext, model: string, usingGroup: string, userGroup: string): Price {
  const factors = modelFactorsOf(ctx, model);
  if (!factors) throw new UnpricedModelError(model);
  return { ...factors, ...groupFactorsOf(ctx, usingGroup, userGroup) };
}
