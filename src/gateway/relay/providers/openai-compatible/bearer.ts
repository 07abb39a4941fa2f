import { firstKey } from "../channel";
import type { ProviderChannel } from "../types";

/** OpenAI's authentication: the channel's first key as a Bearer token. */
export const bearerHeaders = (channel: ProviderChannel): Record<string, string> => ({
  authorization: `Bearer ${firstKey(channel)}`,
});
