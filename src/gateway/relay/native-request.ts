import type { InboundCall } from "./inbound-request";
import { anthropicHeaders } from "./providers/anthropic/headers";
import { channelBaseUrl } from "./providers/channel";
import { geminiHeaders } from "./providers/gemini/address";
import type { Provider, ProviderChannel, UpstreamCall } from "./providers/types";

/** How each family that some inbound dialect speaks natively is authenticated (its address is its base URL). */
const AUTH_HEADERS: Record<string, (channel: ProviderChannel) => Record<string, string>> = {
  anthropic: anthropicHeaders,
  gemini: geminiHeaders,
};

/** The upstream call of a pass-through: the client's own body with the upstream model, to the dialect's path. */
export function nativeCall(inbound: InboundCall, model: string, stream: boolean): UpstreamCall {
  const { dialect, body, raw, route } = inbound;
  const path = dialect.native.path(route, model);
  return { path, model, body: dialect.native.body(body, raw, model), contentType: "application/json", stream };
}

/**
 * The family's provider, addressing a pass-through: `<base><path>`, the family's auth headers, and the client's
 * dialect headers (e.g. anthropic-version) where it sent them.
 */
export function nativeProvider(family: string, provider: Provider, inbound: InboundCall): Provider {
  const auth = AUTH_HEADERS[family]!;
  return {
    types: provider.types,
    errorOf: provider.errorOf,
    request(channel: ProviderChannel, call: UpstreamCall) {
      const headers = { ...auth(channel), "content-type": "application/json", ...inbound.headers };
      return { url: channelBaseUrl(channel) + call.path, headers };
    },
  };
}

/** Whether a channel of `family` takes the inbound dialect's calls untranslated. */
export const passesThrough = (family: string, inbound: InboundCall | undefined): inbound is InboundCall =>
  inbound !== undefined && inbound.dialect.nativeFamily === family && family in AUTH_HEADERS;
