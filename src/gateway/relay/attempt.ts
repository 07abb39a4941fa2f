import type { RouteChannel } from "../../service/relay/routing-table";
import { mapStatus, type AttemptFailure } from "../../service/relay/retry-policy";
import { maskUpstreamText } from "../../service/relay/mask";
import { RefusedAddressError, type UpstreamGate } from "../../service/egress/gate";
import { gatedFetch } from "../../service/egress/gated-fetch";
import { viaProxy } from "../../service/egress/proxy";
import { postUpstream, UnsendableRequestError } from "../upstream/client";
import { fetchedReply, type UpstreamReply } from "../upstream/reply";
import { BadReplyError } from "../upstream/response-parser";
import { providerFor } from "./providers";
import type { Provider, UpstreamCall } from "./providers/types";

export type AttemptResult = { ok: true; response: UpstreamReply } | { ok: false; failure: AttemptFailure; upstreamCode?: string; upstreamType?: string };

const ERROR_BODY_LIMIT = 64 * 1024;

async function errorOf(response: UpstreamReply, channel: RouteChannel): Promise<AttemptResult> {
  const text = (await response.text().catch(() => "")).slice(0, ERROR_BODY_LIMIT);
  let message = text || `upstream answered ${response.status}`;
  let upstreamCode: string | undefined;
  let upstreamType: string | undefined;
  try {
    const parsed = JSON.parse(text);
    const error = parsed?.error ?? parsed;
    if (typeof error?.message === "string") message = error.message;
    else if (typeof error === "string") message = error;
    if (error?.code !== undefined && error?.code !== null) upstreamCode = String(error.code);
    if (typeof error?.type === "string" && error.type) upstreamType = error.type;
  } catch {}
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
): Promise<AttemptResult> {
  const { url, headers, body = call.body } = provider.request(channel.row, call);
  if (!url.startsWith("http")) {
    return { ok: false, failure: { status: 0, message: "the channel has no base URL configured" } };
  }
  try {
    const deadline = timeoutMs > 0 ? { ms: timeoutMs, untilHead: call.stream } : undefined;
    const response =
      typeof body === "string" && !viaProxy(url)
        ? await postUpstream(url, headers, body, undefined, gate, deadline)
        : fetchedReply(await gatedFetch(url, { method: "POST", headers, body, redirect: "manual", signal: deadline && AbortSignal.timeout(deadline.ms) }, gate));
    if (response.status >= 200 && response.status < 300) return { ok: true, response };
    return await errorOf(response, channel);
  } catch (error) {
    if (error instanceof RefusedAddressError) return { ok: false, failure: { status: 0, message: error.message }, upstreamCode: "upstream_address_not_allowed" };
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
