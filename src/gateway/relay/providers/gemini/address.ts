import { firstKey } from "../channel";
import type { ProviderChannel } from "../types";

/** The API version of a channel whose `other` is blank. */
export const DEFAULT_VERSION = "v1beta";

/** A Gemini channel's `other` names the API version. */
export const geminiVersionOf = (channel: ProviderChannel): string => channel.other?.trim() || DEFAULT_VERSION;

/** Gemini's API: the key in `x-goog-api-key` (kept out of the URL). */
export const geminiHeaders = (channel: ProviderChannel): Record<string, string> => ({
  "x-goog-api-key": firstKey(channel),
});
