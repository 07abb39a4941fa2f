import { firstKey } from "../channel";
import type { ProviderChannel } from "../types";

/** Anthropic's API: the key in `x-api-key`, the API version in `anthropic-version`. */
export const anthropicHeaders = (channel: ProviderChannel): Record<string, string> => ({
  "x-api-key": firstKey(channel),
  "anthropic-version": "2023-06-01",
});
