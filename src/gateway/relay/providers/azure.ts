import type { ChannelRow } from "../../../db/schema";
import { channelBaseUrl, firstKey } from "./base-url";
import type { Provider, UpstreamCall } from "./types";

const DEFAULT_API_VERSION = "2025-04-01-preview";

/** Azure OpenAI: `/openai/deployments/<model>/<task>?api-version=<other>`, `api-key` header. */
export const azureProvider: Provider = {
  request(channel: ChannelRow, call: UpstreamCall) {
    const task = call.path.replace(/^\/v1\//, "");
    const version = channel.other.trim() || DEFAULT_API_VERSION;
    const deployment = encodeURIComponent(call.model.replace(/\./g, ""));
    const headers: Record<string, string> = { "api-key": firstKey(channel) };
    if (call.contentType) headers["content-type"] = call.contentType;
    const url = `${channelBaseUrl(channel)}/openai/deployments/${deployment}/${task}?api-version=${encodeURIComponent(version)}`;
    return { url, headers };
  },
};
