export const SESSION_COOKIE = "session";

/** A cookie's value; one that cannot be decoded (a stray `%`) is treated as absent, not as a server error. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function sessionCookie(request: Request, value: string, maxAgeSeconds: number): string {
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  return [
    `${SESSION_COOKIE}=${value}`,
    "Path=/",
    `Max-Age=${maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export const clearedSessionCookie = () => `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;

/** Ties an OAuth state to the browser that asked for it (a link carrying someone else's state is refused). */
export const OAUTH_BROWSER_COOKIE = "oauth_browser";

export function oauthBrowserCookie(request: Request, value: string, maxAgeSeconds: number): string {
  return sessionCookie(request, value, maxAgeSeconds).replace(`${SESSION_COOKIE}=`, `${OAUTH_BROWSER_COOKIE}=`);
}
