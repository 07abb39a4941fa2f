import type { InboundCall } from "./inbound-request";
import { anthropicHeaders } from "./providers/anthropic/headers";
import { channelBaseUrl } from "./providers/channel";
import { geminiHeaders } from "./providers/gemini/address";
import type { Provider, ProviderChannel, UpstreamCall } from "./providers/types";

/**
 * How each translating family that some inbound dialect speaks natively is authenticated (its address is its
 * base URL and the dialect's path).
 */
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
 * The family's provider, addressing a pass-through: for a family that translates, `<base><path>` with its auth
 * headers; for an OpenAI-shaped family, its own request (it sends bodies as they are). Either way with the
 * client's dialect headers (e.g. anthropic-version) where it sent them.
 */
export function nativeProvider(family: string, provider: Provider, inbound: InboundCall): Provider {
  const auth = AUTH_HEADERS[family];
  const request = auth
    ? (channel: ProviderChannel, call: UpstreamCall) => ({
        url: channelBaseUrl(channel) + (inbound.dialect.native.pathPrefix?.(channel.other) ?? "") + call.path,
        headers: { ...auth(channel), "content-type": "application/json", ...inbound.headers },
      })
    : (channel: ProviderChannel, call: UpstreamCall) => {
        const own = provider.request(channel, call);
        return { ...own, headers: { ...own.headers, ...inbound.headers } };
      };
  return { types: provider.types, errorOf: provider.errorOf, request };
}
