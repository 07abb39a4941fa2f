import { isIP } from "node:net";
import { refuse } from "../errors";

function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, extra] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** IP addresses and CIDR ranges, one per line (spaces and commas also separate); stored one per line, repeats dropped. */
export function allowIpsOf(text: string): string {
  const entries = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  for (const entry of entries) {
    if (!isAddressOrRange(entry)) refuse(`allow_ips: "${entry}" is not an IP address or CIDR range`);
  }
  return entries.join("\n");
}
