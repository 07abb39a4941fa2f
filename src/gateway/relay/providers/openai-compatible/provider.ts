import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import type { Provider, UpstreamCall, ProviderChannel } from "../types";
import { dashboardBalance } from "./balance";
import { bearerHeaders } from "./bearer";
import { CUSTOM_TYPE, customAddress } from "./custom-address";
import { vendorModels } from "./models";
import { prefixOf, WIRE_RULES } from "./wire-rules";

const OPENAI_PREFIX = /^\/v1(?=\/|$)/;

/** The address of a call: the type's API base (base URL + the vendor's prefix for OpenAI's /v1) and the call's path. */
function addressOf(channel: ProviderChannel, call: UpstreamCall): string {
  if (channel.type === CUSTOM_TYPE) return customAddress(channel, call);
  const rule = WIRE_RULES[channel.type]!;
  return channelBaseUrl(channel) + prefixOf(rule, channel) + call.path.replace(OPENAI_PREFIX, "");
}

/**
 * OpenAI and the upstreams that speak its dialect, each under its own path (wire-rules.ts), the key as a Bearer
 * token; Custom (8) at the full address the channel names.
 */
export const openaiCompatibleProvider: Provider = {
  types: [...Object.keys(WIRE_RULES).map(Number), CUSTOM_TYPE],
  request(channel: ProviderChannel, call: UpstreamCall) {
    const headers = bearerHeaders(channel);
    if (call.contentType) headers["content-type"] = call.contentType;
    if (channel.openai_organization) headers["openai-organization"] = channel.openai_organization;
    return { url: addressOf(channel, call), headers };
  },
  errorOf: openaiErrorOf,
  models: vendorModels,
  balance: dashboardBalance,
};
