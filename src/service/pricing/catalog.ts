import type { UserRow } from "../../db/schema";
import { DEFAULT_GROUP } from "../../shared/constants";
import type { Pricing, PricingRow } from "../../shared/views/pricing";
import { groupFactorsOf, modelFactorsOf } from "../billing/pricing";
import type { ServiceContext } from "../context";
import { usableGroups } from "../groups";

/**
 * Served models by the groups that serve them, from the relay's routing table (enabled channels only).
 * Groups looked at: those pricing knows (GroupRatio; every user's group is one) and those the viewer may
 * use: a channel in any other group serves no one.
 */
function servingGroups(ctx: ServiceContext, groups: Iterable<string>): Map<string, string[]> {
  const served = new Map<string, string[]>();
  for (const group of new Set(groups)) {
    for (const model of ctx.relay.routes.modelsOf(group)) {
      const list = served.get(model) ?? [];
      list.push(group);
      served.set(model, list);
    }
  }
  return served;
}

function rowOf(ctx: ServiceContext, model: string, groups: string[]): PricingRow | undefined {
  const factors = modelFactorsOf(ctx, model);
  if (!factors) return undefined;
  const enable_groups = groups.sort();
  if (factors.kind === "per-call") {
    return {
      model_name: model,
      quota_type: 1,
      model_ratio: 0,
      completion_ratio: 0,
      model_price: factors.modelPrice,
      enable_groups,
    };
  }
  const { modelRatio: model_ratio, completionRatio: completion_ratio } = factors;
  return { model_name: model, quota_type: 0, model_ratio, completion_ratio, model_price: 0, enable_groups };
}

/**
 * The pricing page, from the same factors billing charges by. A visitor sees what a new account (group
 * "default") would see. Served models without a price are left out: billing refuses them.
 */
export function pricingFor(ctx: ServiceContext, viewer: UserRow | undefined): Pricing {
  const userGroup = viewer?.group ?? DEFAULT_GROUP;
  const ratioOf = (group: string) => groupFactorsOf(ctx, group, userGroup).groupRatio;
  const usable = usableGroups(ctx, userGroup);
  const known = Object.keys(ctx.options.json<Record<string, number>>("GroupRatio"));
  const data: PricingRow[] = [];
  for (const [model, groups] of servingGroups(ctx, [...known, ...Object.keys(usable)])) {
    const row = rowOf(ctx, model, groups);
    if (row) data.push(row);
  }
  data.sort((a, b) => a.model_name.localeCompare(b.model_name));
  const group_ratio = Object.fromEntries(known.map((group) => [group, ratioOf(group)]));
  const usable_group = Object.fromEntries(
    Object.entries(usable).map(([group, { desc }]) => [group, { desc, ratio: ratioOf(group) }]),
  );
  return { data, group_ratio, usable_group };
}
