/**
 * Whether a browser marks the request as sent by another site's page (a link, an image, a form): by
 * Sec-Fetch-Site, or where a browser sends none, by an Origin that is not this server's. Requests that carry
 * neither (scripts, the CLI, address-bar navigation) are not cross-site.
 */
export function fromAnotherSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  try {
    return new URL(origin).host !== new URL(request.url).host;
  } catch {
    return true;
  }
}
