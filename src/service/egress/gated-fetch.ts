import { isIP } from "node:net";
import { firstReachable, type UpstreamGate } from "./gate";
import { viaProxy } from "./proxy";

/**
 * `fetch` under the upstream address policy. A direct call goes to an address the gate checked (the next one
 * while one refuses): the URL names that address, the Host header and TLS's server name (SNI and the
 * certificate's check) keep the host name, and `proxy: false` keeps it direct (fetch would match NO_PROXY
 * against the address, not the name). A call through the environment's proxy goes as asked once the gate has
 * checked its name (`checkProxied`).
 */
export async function gatedFetch(url: string, init: RequestInit, gate: UpstreamGate): Promise<Response> {
  const parsed = new URL(url);
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  if (viaProxy(url)) {
    await gate.checkProxied(hostname);
    return fetch(url, init);
  }
  const headers = new Headers(init.headers);
  headers.set("host", parsed.host);
  const tls = parsed.protocol === "https:" && !isIP(hostname) ? { tls: { serverName: hostname } } : {};
  return firstReachable(await gate.addressesOf(hostname), (address) => {
    const pinned = new URL(parsed);
    pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
    return fetch(pinned, { ...init, headers, proxy: false, ...tls });
  });
}
