import { BlockList, isIP } from "node:net";

const lists = new Map<string, BlockList>();

/** Whether `ip` is one of the token's allowed addresses or ranges (one per line); an empty list allows all. */
export function ipAllowed(allowIps: string, ip: string): boolean {
  if (!allowIps.trim()) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  let list = lists.get(allowIps);
  if (!list) {
    list = new BlockList();
    for (const entry of allowIps.split(/[\s,]+/).filter(Boolean)) {
      const [address = "", prefix] = entry.split("/");
      const type = isIP(address) === 6 ? "ipv6" : "ipv4";
      if (prefix === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(prefix), type);
    }
    if (lists.size > 10_000) lists.clear();
    lists.set(allowIps, list);
  }
  const normalized = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  return list.check(normalized, isIP(normalized) === 6 ? "ipv6" : "ipv4");
}
