import { baseUrlOf } from "../../../shared/channel-types";
import type { ProviderChannel } from "./types";

/** The channel's base URL, or its type's default; an empty answer means the channel cannot be called. */
export const channelBaseUrl = (channel: ProviderChannel): string => baseUrlOf(channel);

/** A channel created from several keys holds one per line; a single channel uses its first. */
export const firstKey = (channel: ProviderChannel): string => channel.key.split("\n")[0]!.trim();
