import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import { mappedEvents } from "../event-stream";
import { bearerHeaders } from "../openai-compatible/bearer";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { difyChatBody } from "./request";
import { difyStreamMapper } from "./stream";

/** A Dify app (chat, agent or chatflow) through its app API key: `<base>/v1/chat-messages`; chat only. */
export const difyProvider: Provider = {
  types: [37],
  endpoints: new Set(["chat"]),
  streamsOnly: true,
  request(channel: ProviderChannel, call: UpstreamCall) {
    const json = call.json ?? JSON.parse(String(call.body));
    return {
      url: `${channelBaseUrl(channel)}/v1/chat-messages`,
      headers: { ...bearerHeaders(channel), "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(difyChatBody(json)),
    };
  },
  ...mappedEvents(difyStreamMapper),
  errorOf: openaiErrorOf,
};
