import { channelBaseUrl, firstKey } from "../channel";
import { openaiErrorOf } from "../error-shape";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";

/** The API version a channel with a blank `other` is called with. */
const DEFAULT_API_VERSION = "2025-04-01-preview";

/** The Responses API is not under a deployment: the model is named in the body (compat §8.3). */
const RESPONSES_ADDRESS = "/openai/v1/";
const RESPONSES_VERSION = "preview";

/**
 * Azure OpenAI: `/openai/deployments/<model>/<task>?api-version=<other>`, `api-key` header; the Responses API
 * (and its calls on stored responses) at `/openai/v1/responses…?api-version=preview`.
 */
export const azureProvider: Provider = {
  types: [3],
  otherDefault: DEFAULT_API_VERSION,
  request(channel: ProviderChannel, call: UpstreamCall) {
    const task = call.path.replace(/^\/v1\//, "");
    const version = channel.other.trim() || DEFAULT_API_VERSION;
    const deployment = encodeURIComponent(call.model.replace(/\./g, ""));
    const headers: Record<string, string> = { "api-key": firstKey(channel) };
    if (call.contentType) headers["content-type"] = call.contentType;
    const url = task.startsWith("responses")
      ? `${channelBaseUrl(channel)}${RESPONSES_ADDRESS}${task}?api-version=${RESPONSES_VERSION}`
      : `${channelBaseUrl(channel)}/openai/deployments/${deployment}/${task}?api-version=${encodeURIComponent(version)}`;
    return { url, headers };
  },
  errorOf: openaiErrorOf,
};
