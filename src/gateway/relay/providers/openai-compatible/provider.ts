import { channelBaseUrl, firstKey } from "../channel";
import { openaiErrorOf } from "../error-shape";
import type { Provider, UpstreamCall, ProviderChannel } from "../types";
import { dashboardBalance } from "./balance";
import { openaiModels } from "./models";

/** OpenAI and every OpenAI-compatible upstream: `<base><incoming path>`, Bearer key. */
export const openaiCompatibleProvider: Provider = {
  types: "rest",
  request(channel: ProviderChannel, call: UpstreamCall) {
    const headers: Record<string, string> = { authorization: `Bearer ${firstKey(channel)}` };
    if (call.contentType) headers["content-type"] = call.contentType;
    if (channel.openai_organization) headers["openai-organization"] = channel.openai_organization;
    return { url: channelBaseUrl(channel) + call.path, headers };
  },
  errorOf: openaiErrorOf,
  models: openaiModels,
  balance: dashboardBalance,
};
