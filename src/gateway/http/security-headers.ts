/**
 * Headers on every response: no content-type sniffing, and no framing by other sites. When origins are
 * allowed to frame the console (CONSOLE_FRAME_ANCESTORS), X-Frame-Options is left off, as it cannot name
 * them; the console's frame-ancestors directive names them instead.
 */
export function securityHeaders(frameAncestors: string[]): Record<string, string> {
  const nosniff = { "x-content-type-options": "nosniff" };
  return frameAncestors.length === 0 ? { ...nosniff, "x-frame-options": "DENY" } : nosniff;
}

/** The Content-Security-Policy directive saying who may frame the console. */
export const frameAncestorsDirective = (frameAncestors: string[]) =>
  `frame-ancestors ${frameAncestors.length === 0 ? "'none'" : frameAncestors.join(" ")}`;

/** Adds `headers` to a response the framework does not see (Bun's own routes). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  return withHeaderPairs(response, Object.entries(headers));
}

/** The same with the pairs listed once (the relay's fixed headers: no listing per call). */
export function withHeaderPairs(response: Response, pairs: readonly (readonly [string, string])[]): Response {
  const target = response.headers;
  for (let i = 0; i < pairs.length; i++) target.set(pairs[i]![0], pairs[i]![1]);
  return response;
}
