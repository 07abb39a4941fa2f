import { isIP } from "node:net";
import type { AddressPolicy } from "./address-policy";

/**
 * The addresses of a host name by Bun's resolver (the one Bun.connect and fetch use, with its cache), IPv4 first
 * (a local service often listens on 127.0.0.1 alone, while localhost may name ::1 first).
 */
const resolve = async (hostname: string) =>
  (await Bun.dns.lookup(hostname)).sort((a, b) => a.family - b.family).map((a) => a.address);

/** Errors of a connection that was never made: the next address can be tried (nothing was sent). */
const UNREACHED = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

/** Connects to the addresses in turn while one refuses or cannot be reached; the first connection made answers. */
export async function firstReachable<T>(
  addresses: readonly string[],
  connect: (address: string) => Promise<T>,
): Promise<T> {
  for (let next = 1; ; next++) {
    try {
      return await connect(addresses[next - 1]!);
    } catch (error) {
      if (next >= addresses.length || !UNREACHED.has((error as { code?: string })?.code ?? "")) throw error;
    }
  }
}

/** A call the upstream address policy refuses; its message names the address (or name) and why. */
export class RefusedAddressError extends Error {}

/**
 * The upstream address policy applied at connect time: a host name is resolved once, each address checked, and
 * the caller connects to the addresses returned (never to the name again, so a second answer from DNS cannot
 * move the call elsewhere).
 */
export class UpstreamGate {
  constructor(readonly policy: AddressPolicy) {}

  /** The addresses `hostname` may be called at (IPv4 first), or a RefusedAddressError when it has none. */
  async addressesOf(hostname: string): Promise<string[]> {
    this.checkName(hostname);
    const addresses = isIP(hostname) ? [hostname] : await resolve(hostname);
    const allowed = addresses.filter((address) => this.policy.refusal(hostname, address) === null);
    if (allowed.length === 0) throw this.refusedAmong(hostname, addresses);
    return allowed;
  }

  /**
   * For a call an HTTP proxy makes (the proxy resolves the name and connects; it is root's choice, set in the
   * environment): the name is checked, and every address it resolves to here, if it resolves here at all.
   */
  async checkProxied(hostname: string): Promise<void> {
    this.checkName(hostname);
    const addresses = isIP(hostname) ? [hostname] : await resolve(hostname).catch(() => []);
    if (addresses.some((address) => this.policy.refusal(hostname, address) !== null))
      throw this.refusedAmong(hostname, addresses);
  }

  private refusedAmong(hostname: string, addresses: string[]): RefusedAddressError {
    const refusal = addresses.map((address) => this.policy.refusal(hostname, address)).find((r) => r !== null);
    return new RefusedAddressError(refusal ?? `upstream host ${hostname} has no address`);
  }

  private checkName(hostname: string): void {
    const refusal = this.policy.nameRefusal(hostname);
    if (refusal) throw new RefusedAddressError(refusal);
  }
}
