import type { ServiceContext } from "../../../service/context";
import { RefusedAddressError } from "../../../service/egress/gate";
import { gatedFetch } from "../../../service/egress/gated-fetch";
import { upstreamGate } from "../../../service/egress/site-gate";
import { RelayError } from "../../../service/relay/errors";

/**
 * A drawing's image fetched from its upstream address under the upstream address policy (an address pointing
 * inside the network is refused as for any upstream) and passed through as it streams; only an image is passed.
 */
export async function proxyImage(ctx: ServiceContext, url: string): Promise<Response> {
  let upstream: Response;
  try {
    upstream = await gatedFetch(
      url,
      { redirect: "manual", signal: AbortSignal.timeout(ctx.config.relayTimeoutMs || 60_000) },
      upstreamGate(ctx.options),
    );
  } catch (error) {
    const message = error instanceof RefusedAddressError ? error.message : "the image could not be fetched";
    throw new RelayError(502, message, "upstream_unreachable", "upstream_error");
  }
  const type = upstream.headers.get("content-type") ?? "";
  if (!upstream.ok || !type.startsWith("image/")) {
    await upstream.body?.cancel();
    throw new RelayError(
      502,
      `the image's upstream answered ${upstream.status} ${type}`.trim(),
      "bad_response",
      "upstream_error",
    );
  }
  const headers: Record<string, string> = { "content-type": type, "cache-control": "public, max-age=86400" };
  const length = upstream.headers.get("content-length");
  if (length) headers["content-length"] = length;
  return new Response(upstream.body, { headers });
}
