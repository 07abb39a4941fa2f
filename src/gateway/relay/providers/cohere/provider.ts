import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import { mappedEvents } from "../event-stream";
import { bearerHeaders } from "../openai-compatible/bearer";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { mapChat } from "./chat-reply";
import { cohereChatBody } from "./chat-request";
import { cohereEmbedBody, mapEmbed } from "./embed";
import { cohereModels } from "./models";
import { cohereRerankBody, mapRerank } from "./rerank";
import { cohereStreamMapper } from "./stream";

/** Which of Cohere's APIs a call goes to, by the relay's incoming path. */
function bodyFor(call: UpstreamCall, json: Record<string, any>): { path: string; body: Record<string, unknown> } {
  if (call.path === "/v1/embeddings") return { path: "/v2/embed", body: cohereEmbedBody(json, call.model) };
  if (call.path === "/v1/rerank") return { path: "/v2/rerank", body: cohereRerankBody(json, call.model) };
  return { path: "/v2/chat", body: cohereChatBody(json, call.model, call.stream) };
}

/**
 * Cohere API v2 (its own dialect, bearer key): chat at /v2/chat (messages, tools, typed stream events),
 * embeddings at /v2/embed and rerank at /v2/rerank. Replies are told apart by their shape.
 */
export const cohereProvider: Provider = {
  types: [34],
  endpoints: new Set(["chat", "embeddings", "rerank"]),
  request(channel: ProviderChannel, call: UpstreamCall) {
    const json = call.json ?? JSON.parse(String(call.body));
    const { path, body } = bodyFor(call, json);
    return {
      url: `${channelBaseUrl(channel)}${path}`,
      headers: { ...bearerHeaders(channel), "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    };
  },
  mapResponse(reply: any, model: string) {
    if (reply?.embeddings) return mapEmbed(reply, model);
    if (Array.isArray(reply?.results)) return mapRerank(reply, model);
    return mapChat(reply, model);
  },
  ...mappedEvents(cohereStreamMapper),
  errorOf: openaiErrorOf,
  models: cohereModels,
};
