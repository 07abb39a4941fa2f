type Env = Record<string, string | undefined>;

const setting = (env: Env, name: string) => env[name] || env[name.toLowerCase()] || undefined;
/** The process's proxy settings, read once (the relay asks on every call). */
const PROXY_NAMES = ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"];
const processSettings: Env = Object.fromEntries(PROXY_NAMES.map((name) => [name, setting(process.env, name)]));

/**
 * Whether a call to `url` is to go through an HTTP proxy set the usual way (HTTPS_PROXY or HTTP_PROXY by the
 * URL's scheme, in either case) and not exempted by NO_PROXY (host names, `.domain` or `domain` suffixes, `*`).
 * Such calls are made with fetch, which talks to the proxy; the upstream client connects directly.
 */
export function viaProxy(url: string, env: Env = processSettings): boolean {
  const https = url.startsWith("https:");
  if (!setting(env, https ? "HTTPS_PROXY" : "HTTP_PROXY")) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  } catch {
    return false;
  }
  const exempt = (setting(env, "NO_PROXY") ?? "").split(",").map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  return !exempt.some((entry) => {
    if (entry === "*") return true;
    const domain = entry.replace(/^\*?\./, "").replace(/:\d+$/, "");
    return host === domain || host.endsWith(`.${domain}`);
  });
}
