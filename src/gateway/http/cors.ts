/**
 * The paths of the relay and the read-only key calls (key-authenticated, callable from any web page allowed
 * by RELAY_CORS_ORIGINS).
 */
export const RELAY_PATH =
  /^\/(v1|v1beta|pg|dashboard|mj|suno|(?:fast|turbo|relax)\/mj)(\/|$)|^\/api\/(usage|log)\/token\/?$/;

/** Headers the SDKs of every dialect send; a preflight allows these and whatever else it asks for. */
const ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "content-encoding",
  "x-api-key",
  "x-goog-api-key",
  "anthropic-version",
  "anthropic-beta",
  "anthropic-dangerous-direct-browser-access",
  "openai-organization",
  "openai-project",
  "openai-beta",
  "x-stainless-retry-count",
  "x-stainless-timeout",
];

const EXPOSED = "x-tollgate-request-id, retry-after";

/**
 * Cross-origin access to the relay: the headers its replies carry, and the answer to a browser's preflight.
 * Credentials (cookies) are never allowed across origins, so the management API's session stays same-site.
 */
export interface RelayCors {
  /** The headers every relay reply carries when any origin is allowed (then the same for every request). */
  fixedHeaders?: Record<string, string>;
  /** Headers for a relay reply to `request` (the same object every time when any origin is allowed). */
  replyHeaders(request: Request): Record<string, string>;
  /** The 204 answer to an OPTIONS preflight. */
  preflight(request: Request): Response;
}

export function relayCors(origins: string[]): RelayCors {
  const anyOrigin = origins.includes("*");
  const allowed = new Set(origins);
  const forAny = { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED };
  const forNone = { vary: "Origin" };
  const replyHeaders = (request: Request): Record<string, string> => {
    if (anyOrigin) return forAny;
    const origin = request.headers.get("origin");
    if (!origin || !allowed.has(origin)) return forNone;
    return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED, vary: "Origin" };
  };
  return {
    fixedHeaders: anyOrigin ? forAny : undefined,
    replyHeaders,
    preflight(request) {
      const headers: Record<string, string> = { ...replyHeaders(request) };
      if (headers["access-control-allow-origin"]) {
        const asked = request.headers.get("access-control-request-headers");
        headers["access-control-allow-methods"] = "GET, POST, DELETE, OPTIONS";
        headers["access-control-allow-headers"] = asked
          ? `${ALLOWED_HEADERS.join(", ")}, ${asked}`
          : ALLOWED_HEADERS.join(", ");
        headers["access-control-max-age"] = "86400";
      }
      return new Response(null, { status: 204, headers });
    },
  };
}
