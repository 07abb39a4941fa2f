import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import { mappedEventsAndWhole } from "../event-stream";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { anthropicHeaders } from "./headers";
import { anthropicModels } from "./models";
import { mapMessage } from "./reply";
import { messagesBody } from "./request";
import { streamMapper } from "./stream";

/** Anthropic Messages API: `<base>/v1/messages`, `x-api-key` and `anthropic-version` headers; chat only. */
export const anthropicProvider: Provider = {
  types: [14],
  endpoints: new Set(["chat"]),
  request(channel: ProviderChannel, call: UpstreamCall) {
    const json = call.json ?? JSON.parse(String(call.body));
    return {
      url: `${channelBaseUrl(channel)}/v1/messages`,
      headers: { ...anthropicHeaders(channel), "content-type": "application/json" },
      body: JSON.stringify(messagesBody(json, call.model, call.stream)),
    };
  },
  mapResponse: mapMessage,
  ...mappedEventsAndWhole(streamMapper),
  errorOf: openaiErrorOf,
  models: anthropicModels,
};
