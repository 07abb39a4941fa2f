import type { Server } from "bun";
import { canonicalAddress, isTrustedProxy, type ProxyTrust } from "../../service/proxy-trust";

/**
 * The caller's address. Without proxy trust it is the socket's. Behind trusted proxies it is read from the
 * right-hand end of X-Forwarded-For, which the proxies wrote: with TRUST_PROXY=N the entry N places left of
 * the socket's address; with TRUSTED_PROXIES the right-most address that is not a trusted proxy, and only
 * when the socket's peer is itself one. An entry there that is not an IP address is not believed.
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trust: ProxyTrust): string {
  const peer = server?.requestIP(request)?.address ?? "unknown";
  if (trust.kind === "none") return peer;
  const header = request.headers.get("x-forwarded-for");
  if (!header) return peer;
  const chain = [...header.split(","), peer].map((entry) => canonicalAddress(entry.trim()));
  const chosen =
    trust.kind === "hops" ? chain[Math.max(0, chain.length - 1 - trust.hops)] : firstUntrusted(chain, trust.ranges);
  return chosen ?? peer;
}

/** Walking from the socket leftwards, the first address that is not a trusted proxy (else the left-most). */
function firstUntrusted(
  chain: (string | undefined)[],
  ranges: Parameters<typeof isTrustedProxy>[0],
): string | undefined {
  for (let at = chain.length - 1; at >= 0; at--) {
    const address = chain[at];
    if (address === undefined || !isTrustedProxy(ranges, address) || at === 0) return address;
  }
  return undefined;
}
