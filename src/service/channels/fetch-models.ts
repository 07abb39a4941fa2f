import { findChannel } from "../../db/queries/channels";
import type { UserRow } from "../../db/schema";
import { CHANNEL_TYPES, channelTypeName } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import type { UpstreamGate } from "../egress/gate";
import { upstreamGate } from "../egress/site-gate";
import { notFound, refuse } from "../errors";
import { requireAdmin } from "../users/admin-access";
import { idOf, type Input } from "../input";
import { ANTHROPIC_TYPE, GEMINI_TYPE, anthropicHeaders, firstKeyOf, geminiHeaders, geminiVersionOf } from "./dialects";
import { channelFieldsOf } from "./fields";
import { bearerHeaders, getUpstreamJson, upstreamBaseOf } from "./upstream";

const WHAT = "fetching the model list";
/** What one page may hold at the most (Anthropic's and Gemini's largest page). */
const PAGE_SIZE = "1000";
/** Pages followed at the most: far more models than any upstream lists, and an end to an upstream that never stops. */
const MAX_PAGES = 20;

type Channel = { type: number; base_url: string; key: string; other?: string };
/** One page of an upstream's list: its model ids and, when more follow, the cursor of the next page. */
type Page = { ids: unknown[]; next?: unknown };

const notAList = (): never => refuse(`${WHAT} failed: the upstream reply is not a model list`);
const arrayIn = (reply: unknown, field: string): any[] => {
  const list = (reply as Record<string, unknown> | null)?.[field];
  return Array.isArray(list) ? list : notAList();
};

/** Follows the pages from the first until one names no next cursor (or repeats its own), MAX_PAGES at the most; the ids in order, without repeats. */
async function allPages(page: (cursor: string | undefined) => Promise<Page>): Promise<string[]> {
  const ids: unknown[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const { ids: more, next } = await page(cursor);
    ids.push(...more);
    if (typeof next !== "string" || next === "" || next === cursor) break;
    cursor = next;
  }
  return [...new Set(ids.filter((id): id is string => typeof id === "string" && id !== ""))];
}


/** OpenAI dialect: GET {base}/v1/models with a Bearer key, one page {data: [{id}]}. */
const openaiModels = (base: string, channel: Channel, gate: UpstreamGate) =>
  allPages(async () => ({ ids: arrayIn(await getUpstreamJson(`${base}/v1/models`, bearerHeaders(channel.key), WHAT, gate), "data").map((m) => m?.id) }));

/** Anthropic: GET {base}/v1/models, {data: [{id}], has_more, last_id}; the next page is ?after_id={last_id}. */
const anthropicModels = (base: string, channel: Channel, gate: UpstreamGate) =>
  allPages(async (after) => {
    const query = new URLSearchParams({ ...(after && { after_id: after }), limit: PAGE_SIZE });
    const reply = (await getUpstreamJson(`${base}/v1/models?${query}`, anthropicHeaders(firstKeyOf(channel.key)), WHAT, gate)) as any;
    return { ids: arrayIn(reply, "data").map((m) => m?.id), next: reply.has_more === true ? reply.last_id : undefined };
  });

/** Gemini: GET {base}/{version}/models, {models: [{name: "models/…"}], nextPageToken}; the next page is ?pageToken=…. */
const geminiModels = (base: string, channel: Channel, gate: UpstreamGate) =>
  allPages(async (token) => {
    const query = new URLSearchParams({ pageSize: PAGE_SIZE, ...(token && { pageToken: token }) });
    const reply = (await getUpstreamJson(`${base}/${geminiVersionOf(channel.other)}/models?${query}`, geminiHeaders(firstKeyOf(channel.key)), WHAT, gate)) as any;
    const ids = arrayIn(reply, "models").map((m) => (typeof m?.name === "string" ? m.name.replace(/^models\//, "") : undefined));
    return { ids, next: reply.nextPageToken };
  });

function listerFor(type: number): ((base: string, channel: Channel, gate: UpstreamGate) => Promise<string[]>) | undefined {
  if (type === ANTHROPIC_TYPE) return anthropicModels;
  if (type === GEMINI_TYPE) return geminiModels;
  return CHANNEL_TYPES.get(type)?.openai ? openaiModels : undefined;
}

/** The model ids the channel's upstream lists, in its order, without repeats, asked in the upstream's own dialect. */
async function listUpstreamModels(ctx: ServiceContext, channel: Channel): Promise<string[]> {
  const list = listerFor(channel.type) ?? refuse(`${WHAT} is not supported for channel type ${channelTypeName(channel.type)}`);
  const base = upstreamBaseOf(channel);
  if (!base) refuse(`${WHAT} failed: the channel has no base URL`);
  return list(base, channel, upstreamGate(ctx.options));
}

/** With the stored channel's key and address. */
export async function fetchChannelModels(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<string[]> {
  requireAdmin(actor);
  return listUpstreamModels(ctx, (await findChannel(ctx.db, idOf(id))) ?? notFound("channel"));
}

/** With a type, key, base URL and (Gemini's API version) other given (a channel not yet saved); the stored keys are never used here. */
export async function fetchModelsWith(ctx: ServiceContext, actor: UserRow, input: Input): Promise<string[]> {
  requireAdmin(actor);
  const { type, base_url = "", key, other } = channelFieldsOf({ type: input.type, base_url: input.base_url, key: input.key, other: input.other });
  if (type === undefined) refuse("type is required");
  if (!key) refuse("key is required");
  return listUpstreamModels(ctx, { type: type!, base_url, key: key!, other });
}
