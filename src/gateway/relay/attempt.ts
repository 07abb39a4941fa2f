import type { RouteChannel } from "../../service/relay/routing-table";
import { mapStatus, type AttemptFailure } from "../../service/relay/retry-policy";
import { maskUpstreamText } from "../../service/relay/mask";
import { RefusedAddressError, type UpstreamGate } from "../../service/egress/gate";
import { gatedFetch } from "../../service/egress/gated-fetch";
import { viaProxy } from "../../service/egress/proxy";
import { postUpstream, UnsendableRequestError } from "../upstream/client";
import { fetchedReply, type UpstreamReply } from "../upstream/reply";
import { BadReplyError } from "../upstream/response-parser";
import { ChannelConfigError } from "../../shared/channel-config-error";
import { overriddenBody, overriddenHeaders } from "../../service/relay/channel-overrides";
import { misconfigured, tokenFor } from "./minted-token";
import { providerFor } from "./providers/registry";
import type { Provider, UpstreamCall, UpstreamError, UpstreamRequest } from "./providers/types";

export type AttemptResult =
  | { ok: true; response: UpstreamReply }
  | { ok: false; failure: AttemptFailure; upstreamCode?: string; upstreamType?: string };

const ERROR_BODY_LIMIT = 64 * 1024;

/** What the family's error reply says; a reply that is not JSON is its own message. */
function upstreamErrorOf(text: string, provider: Provider): UpstreamError {
  try {
    return provider.errorOf(JSON.parse(text));
  } catch {
    return {};
  }
}

async function errorOf(response: UpstreamReply, channel: RouteChannel, provider: Provider): Promise<AttemptResult> {
  const text = (await response.text().catch(() => "")).slice(0, ERROR_BODY_LIMIT);
  const {
    message = text || `upstream answered ${response.status}`,
    code: upstreamCode,
    type: upstreamType,
  } = upstreamErrorOf(text, provider);
  const retryAfterHeader = Number(response.header("retry-after"));
  return {
    ok: false,
    failure: {
      status: mapStatus(channel.statusCodeMapping, response.status),
      message: maskUpstreamText(message, [channel.row.key, channel.row.base_url]),
      retryAfter: Number.isFinite(retryAfterHeader) && retryAfterHeader > 0 ? retryAfterHeader : undefined,
    },
    upstreamCode,
    upstreamType,
  };
}

/** One try against one channel, to an address `gate` allows: the response when it is 2xx, else what failed (masked). */
export async function attemptUpstream(
  channel: RouteChannel,
  call: UpstreamCall,
  timeoutMs: number,
  gate: UpstreamGate,
  provider: Provider = providerFor(channel.row.type),
  clientHeaders?: Headers,
): Promise<AttemptResult> {
  let token: string | undefined;
  if (provider.grant) {
    const minted = await tokenFor(provider.grant, channel.row, gate);
    if (!minted.ok) return minted;
    token = minted.token;
  }
  let request: UpstreamRequest;
  try {
    request = provider.request(channel.row, call, token);
  } catch (error) {
    if (!(error instanceof ChannelConfigError)) throw error;
    return misconfigured(error);
  }
  const { url } = request;
  let { headers, body = call.body } = request;
  // The channel's overrides go last, over what the family built; they cannot reach the key or the model.
  const overrides = channel.overrides;
  if (overrides?.params && typeof body === "string") body = overriddenBody(body, overrides.params);
  if (overrides?.headers)
    headers = overriddenHeaders(headers, overrides.headers, (name) => clientHeaders?.get(name) ?? null);
  if (!url.startsWith("http")) {
    return { ok: false, failure: { status: 0, message: "the channel has no base URL configured" } };
  }
  try {
    const deadline = timeoutMs > 0 ? { ms: timeoutMs, untilHead: call.stream } : undefined;
    const response =
      typeof body === "string" && !viaProxy(url)
        ? await postUpstream(url, headers, body, undefined, gate, deadline)
        : fetchedReply(
            await gatedFetch(
              url,
              {
                method: "POST",
                headers,
                body,
                redirect: "manual",
                signal: deadline && AbortSignal.timeout(deadline.ms),
              },
              gate,
            ),
          );
    if (response.status >= 200 && response.status < 300) return { ok: true, response };
    return await errorOf(response, channel, provider);
  } catch (error) {
    if (error instanceof RefusedAddressError)
      return {
        ok: false,
        failure: { status: 0, message: error.message },
        upstreamCode: "upstream_address_not_allowed",
      };
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const message =
      error instanceof UnsendableRequestError
        ? `the request could not be sent: ${error.message}`
        : error instanceof BadReplyError
          ? `the upstream's reply could not be read: ${error.message}`
          : timedOut
            ? "the upstream did not answer in time"
            : "could not connect to the upstream";
    return { ok: false, failure: { status: 0, message } };
  }
}
