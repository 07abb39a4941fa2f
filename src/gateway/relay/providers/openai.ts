import type { ChannelRow } from "../../../db/schema";
import { channelBaseUrl, firstKey } from "./base-url";
import type { Provider, UpstreamCall } from "./types";

/** OpenAI and every OpenAI-compatible upstream: `<base><incoming path>`, Bearer key. */
export const openaiProvider: Provider = {
  request(channel: ChannelRow, call: UpstreamCall) {
    const headers: Record<string, string> = { authorization: `Bearer ${firstKey(channel)}` };
    if (call.contentType) headers["content-type"] = call.contentType;
    if (channel.openai_organization) headers["openai-organization"] = channel.openai_organization;
    return { url: channelBaseUrl(channel) + call.path, headers };
  },
};
