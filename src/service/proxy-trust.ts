import ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Which proxies in front of the gateway may name the client in X-Forwarded-For (each proxy appends the
 * address it was reached from, so only the right-hand end of the header is theirs; the left is the client's
 * to write). `hops`: the nearest `hops` proxies are trusted, whatever their addresses (TRUST_PROXY=N).
 * `ranges`: the proxies are the addresses in these ranges (TRUSTED_PROXIES).
 */
export type ProxyTrust = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "ranges"; ranges: Range[] };

/** `address` in canonical form (an IPv4-mapped IPv6 address as IPv4), or undefined when it is not an IP address. */
export function canonicalAddress(address: string): string | undefined {
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : undefined;
}

function parseRange(entry: string): Range {
  if (ipaddr.isValidCIDR(entry)) {
    const [address, bits] = ipaddr.parseCIDR(entry);
    return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? [(address as ipaddr.IPv6).toIPv4Address(), bits - 96]
      : [address, bits];
  }
  if (ipaddr.isValid(entry)) {
    const address = ipaddr.process(entry);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  }
  throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
}

/** TRUST_PROXY (off, 1/true, or a number of hops) and TRUSTED_PROXIES (comma-separated addresses and CIDR ranges). */
export function parseProxyTrust(trustProxy = "", trustedProxies = ""): ProxyTrust {
  const entries = trustedProxies
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const flag = trustProxy.trim().toLowerCase();
  const off = flag === "" || flag === "0" || flag === "false";
  if (entries.length > 0) {
    if (!off) throw new Error("set TRUST_PROXY (a number of hops) or TRUSTED_PROXIES (proxy addresses), not both");
    return { kind: "ranges", ranges: entries.map(parseRange) };
  }
  if (off) return { kind: "none" };
  const hops = flag === "true" ? 1 : Number(flag);
  if (!Number.isInteger(hops) || hops < 0)
    throw new Error(`TRUST_PROXY must be off, true or a number of proxy hops, got "${trustProxy}"`);
  return { kind: "hops", hops };
}

/** Whether `address` (canonical) is one of the trusted proxies of a `ranges` trust. */
export function isTrustedProxy(ranges: Range[], address: string): boolean {
  const parsed = ipaddr.parse(address);
  return ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
}
