type Env = Record<string, string | undefined>;

/** A setting by its upper-case name, or else its lower-case one. */
const setting = (env: Env, upper: string, lower: string) => env[upper] || env[lower] || undefined;
/** The process's proxy settings, read once (the relay asks on every call). */
const processSettings: Env = Object.fromEntries(
  ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"].map((name) => [name, setting(process.env, name, name.toLowerCase())]),
);

/**
 * Whether a call to `url` is to go through an HTTP proxy set the usual way (HTTPS_PROXY or HTTP_PROXY by the
 * URL's scheme, in either case) and not exempted by NO_PROXY (host names, `.domain` or `domain` suffixes, `*`).
 * Such calls are made with fetch, which talks to the proxy; the upstream client connects directly.
 */
export function viaProxy(url: string, env: Env = processSettings): boolean {
  const https = url.startsWith("https:");
  if (!(https ? setting(env, "HTTPS_PROXY", "https_proxy") : setting(env, "HTTP_PROXY", "http_proxy"))) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  } catch {
    return false;
  }
  const exempt = (setting(env, "NO_PROXY", "no_proxy") ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  return !exempt.some((entry) => {
    if (entry === "*") return true;
    const domain = entry.replace(/^\*?\./, "").replace(/:\d+$/, "");
    return host === domain || host.endsWith(`.${domain}`);
  });
}
