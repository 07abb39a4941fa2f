import { channelBaseUrl, firstKey } from "../channel";
import { openaiErrorOf } from "../error-shape";
import type { Provider, ProviderChannel } from "../types";

/**
 * A FastGPT app (type 22) through its OpenAI-compatible API: `<base>/v1/chat/completions`, bodies and replies as
 * OpenAI's. An app's own key needs nothing more; with a key that is not bound to one app, FastGPT takes the app
 * (the knowledge-base app) as `<key>-<appId>`: the channel's knowledge base ID, when set.
 */
export const fastgptProvider: Provider = {
  types: [22],
  endpoints: new Set(["chat"]),
  request(channel: ProviderChannel) {
    const app = channel.other.trim();
    const key = app ? `${firstKey(channel)}-${app}` : firstKey(channel);
    return {
      url: `${channelBaseUrl(channel)}/v1/chat/completions`,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    };
  },
  errorOf: openaiErrorOf,
};
