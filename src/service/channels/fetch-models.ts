import { findChannel } from "../../db/queries/channels";
import type { UserRow } from "../../db/schema";
import { CHANNEL_TYPES, channelTypeName } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import { upstreamGate } from "../egress/site-gate";
import { notFound, refuse } from "../errors";
import { requireAdmin } from "../users/admin-access";
import { idOf, type Input } from "../input";
import { channelFieldsOf } from "./fields";
import type { ChannelUpstream, UpstreamChannel } from "./upstream-port";

/** The model ids the channel's upstream lists, for the types whose upstream lists them. */
function listUpstreamModels(
  ctx: ServiceContext,
  upstream: ChannelUpstream,
  channel: UpstreamChannel,
): Promise<string[]> {
  if (!CHANNEL_TYPES.get(channel.type)?.listsModels)
    refuse(`fetching the model list is not supported for channel type ${channelTypeName(channel.type)}`);
  return upstream.listModels(channel, upstreamGate(ctx.options));
}

/** With the stored channel's key and address. */
export async function fetchChannelModels(
  ctx: ServiceContext,
  upstream: ChannelUpstream,
  actor: UserRow,
  id: unknown,
): Promise<string[]> {
  requireAdmin(actor);
  return listUpstreamModels(ctx, upstream, (await findChannel(ctx.db, idOf(id))) ?? notFound("channel"));
}

/** With a type, key, base URL and (Gemini's API version) other given (a channel not yet saved); the stored keys are never used here. */
export async function fetchModelsWith(
  ctx: ServiceContext,
  upstream: ChannelUpstream,
  actor: UserRow,
  input: Input,
): Promise<string[]> {
  requireAdmin(actor);
  const {
    type,
    base_url = "",
    key,
    other = "",
  } = channelFieldsOf({ type: input.type, base_url: input.base_url, key: input.key, other: input.other });
  if (type === undefined) refuse("type is required");
  if (!key) refuse("key is required");
  return listUpstreamModels(ctx, upstream, { type: type!, base_url, key: key!, other });
}
