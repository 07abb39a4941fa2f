import { channelModelLists } from "../../db/queries/channels";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from "../options/default-prices";
import { requireAdmin } from "../users/admin-access";
import { splitList } from "./lists";

const OPENAI = ["gpt-", "chatgpt-", "o1", "o3", "o4", "text-embedding-", "whisper-", "tts-", "dall-e-"];

/** Which priced models belong to a channel type, by name; types 2, 5 (drawing) and 36 (music) have their own. */
const PREFIXES_BY_TYPE: Record<number, string[]> = {
  1: OPENAI,
  2: ["mj_"],
  3: OPENAI,
  5: ["mj_"],
  14: ["claude-"],
  24: ["gemini-", "imagen-"],
  36: ["suno_"],
  43: ["deepseek-"],
};

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

/** Model names by channel type: the priced models of the type's family and those configured on channels of the type. */
export async function modelsByType(ctx: ServiceContext, actor: UserRow): Promise<Record<number, string[]>> {
  requireAdmin(actor);
  const byType = new Map<number, string[]>();
  const add = (type: number, models: string[]) => byType.set(type, [...(byType.get(type) ?? []), ...models]);
  const priced = pricedModels(ctx);
  for (const [type, prefixes] of Object.entries(PREFIXES_BY_TYPE)) {
    add(
      Number(type),
      priced.filter((model) => prefixes.some((prefix) => model.startsWith(prefix))),
    );
  }
  for (const channel of await channelModelLists(ctx.db)) add(channel.type, splitList(channel.models));
  return Object.fromEntries([...byType].map(([type, models]) => [type, sortedUnique(models)]));
}
