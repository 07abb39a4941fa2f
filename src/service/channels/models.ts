import { channelModelLists } from "../../db/queries/channels";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from "../options/default-prices";
import { requireAdmin } from "../users/admin-access";
import { splitList } from "./lists";
import { RELATED_MODELS, relatedModelsOf } from "./related-models";

function pricedModels(ctx: ServiceContext): string[] {
  const current = (["ModelRatio", "ModelPrice"] as const).map((key) => ctx.options.json<object>(key));
  return [DEFAULT_MODEL_RATIO, DEFAULT_MODEL_PRICE, ...current].flatMap(Object.keys);
}

const sortedUnique = (names: Iterable<string>) => [...new Set(names)].sort();

/** Every model name known: the priced ones (defaults and current) and those configured on channels. */
export async function knownModels(ctx: ServiceContext, actor: UserRow): Promise<string[]> {
  requireAdmin(actor);
  const configured = (await channelModelLists(ctx.db)).flatMap((c) => splitList(c.models));
  return sortedUnique([...pricedModels(ctx), ...configured]);
}

/** Model names by channel type: the type's own, the priced ones of its family, and those configured on its channels. */
export async function modelsByType(ctx: ServiceContext, actor: UserRow): Promise<Record<number, string[]>> {
  requireAdmin(actor);
  const byType = new Map<number, string[]>();
  const add = (type: number, models: string[]) => byType.set(type, [...(byType.get(type) ?? []), ...models]);
  const priced = pricedModels(ctx);
  for (const type of Object.keys(RELATED_MODELS).map(Number)) add(type, relatedModelsOf(type, priced));
  for (const channel of await channelModelLists(ctx.db)) add(channel.type, splitList(channel.models));
  return Object.fromEntries([...byType].map(([type, models]) => [type, sortedUnique(models)]));
}
