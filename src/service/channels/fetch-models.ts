import { findChannel } from "../../db/queries/channels";
import type { UserRow } from "../../db/schema";
import { CHANNEL_TYPES, channelTypeName } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import { notFound, refuse } from "../errors";
import { requireAdmin } from "../users/admin-access";
import { idOf, type Input } from "../input";
import { channelFieldsOf } from "./fields";
import { getUpstreamJson, upstreamBaseOf } from "./upstream";

const WHAT = "fetching the model list";

/** The model ids an OpenAI-dialect upstream lists at GET {base}/v1/models, in its order, without repeats. */
async function listUpstreamModels(channel: { type: number; base_url: string; key: string }): Promise<string[]> {
  if (!CHANNEL_TYPES.get(channel.type)?.openai) refuse(`${WHAT} is not supported for channel type ${channelTypeName(channel.type)}`);
  const reply = await getUpstreamJson(upstreamBaseOf(channel), "/v1/models", channel.key, WHAT);
  const data = (reply as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) refuse(`${WHAT} failed: the upstream reply is not a model list`);
  const ids = (data as { id?: unknown }[]).map((model) => model?.id).filter((id): id is string => typeof id === "string" && id !== "");
  return [...new Set(ids)];
}

/** With the stored channel's key and address. */
export async function fetchChannelModels(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<string[]> {
  requireAdmin(actor);
  return listUpstreamModels((await findChannel(ctx.db, idOf(id))) ?? notFound("channel"));
}

/** With a type, key and base URL given (a channel not yet saved); the stored keys are never used here. */
export async function fetchModelsWith(actor: UserRow, input: Input): Promise<string[]> {
  requireAdmin(actor);
  const { type, base_url = "", key } = channelFieldsOf({ type: input.type, base_url: input.base_url, key: input.key });
  if (type === undefined) refuse("type is required");
  if (!key) refuse("key is required");
  return listUpstreamModels({ type: type!, base_url, key: key! });
}
