import { channelBaseUrl } from "../channel";
import { mappedEvents } from "../event-stream";
import { bearerHeaders } from "../openai-compatible/bearer";
import type { Provider, ProviderChannel, UpstreamCall, UpstreamError } from "../types";
import { cozeChatBody } from "./request";
import { cozeStreamMapper } from "./stream";

/** Coze's error reply {code, msg}. */
function cozeErrorOf(reply: any): UpstreamError {
  const found: UpstreamError = {};
  if (typeof reply?.msg === "string" && reply.msg) found.message = reply.msg;
  if (reply?.code !== undefined && reply?.code !== null) found.code = String(reply.code);
  return found;
}

/** A Coze bot through the v3 chat API: `<base>/v3/chat`, a personal access token as bearer, the bot id in `other`. */
export const cozeProvider: Provider = {
  types: [49],
  endpoints: new Set(["chat"]),
  streamsOnly: true,
  request(channel: ProviderChannel, call: UpstreamCall) {
    const json = call.json ?? JSON.parse(String(call.body));
    return {
      url: `${channelBaseUrl(channel)}/v3/chat`,
      headers: { ...bearerHeaders(channel), "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(cozeChatBody(json, channel.other.trim())),
    };
  },
  ...mappedEvents(cozeStreamMapper),
  errorOf: cozeErrorOf,
};
