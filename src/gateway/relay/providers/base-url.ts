import type { ChannelRow } from "../../../db/schema";
import { firstKeyOf } from "../../../service/channels/dialects";
import { upstreamBaseOf } from "../../../service/channels/upstream";

/** The channel's base URL, or its type's default; an empty answer means the channel cannot be called. */
export const channelBaseUrl = (channel: ChannelRow): string => upstreamBaseOf(channel);

/** A channel created from several keys holds one per line; a single channel uses its first. */
export const firstKey = (channel: ChannelRow): string => firstKeyOf(channel.key);
