import { allows, allowListOf, parseAddress, type AllowList } from "./allow-list";

/**
 * Cloud instance-metadata services: their addresses outside 169.254.0.0/16 (Alibaba's, AWS's IPv6 one, Azure's
 * wire server) and their names, refused by name too for calls whose name is resolved by a proxy.
 */
const METADATA_ADDRESSES = new Set(["100.100.100.200", "fd00:ec2::254", "168.63.129.16"]);
const METADATA_HOSTS = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.tencentyun.com",
  "instance-data",
  "instance-data.ec2.internal",
]);

export interface AddressPolicySettings {
  /** Loopback and private destinations that may be called (addresses, CIDR ranges, host names), in stored form. */
  allowed: readonly string[];
  /** Link-local and cloud-metadata destinations may be called. */
  allowLinkLocal: boolean;
}

const refused = (what: string, why: string) =>
  `upstream ${what} is not allowed by the upstream address policy (${why})`;

/**
 * Where upstream calls may go. Public unicast addresses: always. Link-local and cloud-metadata addresses and
 * names: only with allowLinkLocal (an allowed range does not open them). Every other address ipaddr.js names
 * a special range (loopback, RFC 1918, CGNAT, unique-local, unspecified, multicast, reserved, 6to4, …): only
 * when `allowed` holds it or the host name it was reached by.
 */
export class AddressPolicy {
  private readonly allowList: AllowList;
  private readonly decisions = new Map<string, string | null>();

  constructor(private readonly settings: AddressPolicySettings) {
    this.allowList = allowListOf(settings.allowed);
  }

  /** Why a call to `host` may not go anywhere whatever it resolves to (a metadata name), else null. */
  nameRefusal(host: string): string | null {
    const name = host.toLowerCase().replace(/\.$/, "");
    return METADATA_HOSTS.has(name) && !this.settings.allowLinkLocal
      ? refused(`host ${name}`, "a cloud metadata name")
      : null;
  }

  /** Why `host`, resolved to `address`, may not be called there, else null. Decisions are kept per host and address. */
  refusal(host: string, address: string): string | null {
    const key = `${host} ${address}`;
    let decision = this.decisions.get(key);
    if (decision === undefined) {
      decision = this.decide(host.toLowerCase().replace(/\.$/, ""), address);
      if (this.decisions.size >= 1000) this.decisions.clear();
      this.decisions.set(key, decision);
    }
    return decision;
  }

  private decide(host: string, text: string): string | null {
    const address = parseAddress(text);
    if (!address) return refused(`address ${text}`, "not an IP address");
    const shown = address.toString();
    const range = address.range();
    if (range === "linkLocal" || METADATA_ADDRESSES.has(shown)) {
      return this.settings.allowLinkLocal ? null : refused(`address ${shown}`, "link-local or cloud metadata");
    }
    if (range === "unicast") return this.nameRefusal(host);
    return allows(this.allowList, host, address)
      ? null
      : refused(`address ${shown}`, `${range}, not in the allowed private ranges`);
  }
}
