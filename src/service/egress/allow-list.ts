import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Private or loopback destinations root lets upstream calls reach: address ranges, and host names whatever they resolve to. */
export interface AllowList {
  ranges: [Address, number][];
  hosts: Set<string>;
}

/** A DNS name (letters, digits, hyphens, dots), as an upstream URL's host would be written. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,62}[a-z0-9_])?)*\.?$/;

/** An address written the usual way, IPv4-mapped IPv6 taken as the IPv4 it holds. */
export function parseAddress(text: string): Address | null {
  const bare = text.replace(/^\[(.*)\]$/, "$1");
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : null;
}

/** One entry in its stored form, or null when it is none of: an address, a CIDR range, a host name. */
function normalizeEntry(raw: string): string | null {
  const entry = raw
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\](\/\d+)?$/, "$1$2");
  if (ipaddr.isValidCIDR(entry)) {
    const [address, bits] = ipaddr.parseCIDR(entry);
    return `${address.toString()}/${bits}`;
  }
  const address = parseAddress(entry);
  if (address) return address.toString();
  return HOST_NAME.test(entry) ? entry.replace(/\.$/, "") : null;
}

/** The entries of a comma- or line-separated list in stored form; `why` names a bad entry in the error thrown. */
export function normalizeAllowList(text: string, why: (entry: string) => Error): string[] {
  const normalized: string[] = [];
  for (const entry of text.split(/[,\s]+/).filter(Boolean)) {
    const stored = normalizeEntry(entry);
    if (stored === null) throw why(entry);
    normalized.push(stored);
  }
  return normalized;
}

/** A list already in stored form, ready to match. */
export function allowListOf(entries: readonly string[]): AllowList {
  const list: AllowList = { ranges: [], hosts: new Set() };
  for (const entry of entries) {
    if (entry.includes("/")) list.ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      list.ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else list.hosts.add(entry);
  }
  return list;
}

/** Whether the list lets `host` be called at `address`. */
export function allows(list: AllowList, host: string, address: Address): boolean {
  if (list.hosts.has(host)) return true;
  return list.ranges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}
