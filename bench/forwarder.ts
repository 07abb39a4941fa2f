/**
 * The floor of what any Bun relay costs: a bare pass-through with no auth, routing or billing. Every
 * request goes to the same path on the upstream; the reply streams back unchanged, and a client that
 * goes away aborts the upstream request.
 *
 *   bun bench/forwarder.ts --port 8081 --upstream http://127.0.0.1:8082    (or PORT, UPSTREAM_URL)
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { port: { type: "string" }, upstream: { type: "string" }, hostname: { type: "string" } },
});
const upstream = (values.upstream ?? process.env.UPSTREAM_URL ?? "").replace(/\/+$/, "");
if (!upstream) {
  console.error("usage: bun bench/forwarder.ts --port P --upstream http://127.0.0.1:Q");
  process.exit(2);
}

/** Hop-by-hop headers, and Host, which fetch sets from the upstream URL. */
const NOT_FORWARDED = ["host", "connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"];

const server = Bun.serve({
  port: Number(values.port ?? process.env.PORT ?? 0),
  hostname: values.hostname ?? "127.0.0.1",
  idleTimeout: 0,
  async fetch(request) {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    for (const name of NOT_FORWARDED) headers.delete(name);
    try {
      const reply = await fetch(upstream + url.pathname + url.search, {
        method: request.method,
        headers,
        // Buffered, as any relay must read the body to route it; a known length also spares a chunked upload.
        body: request.body ? await request.arrayBuffer() : null,
        signal: request.signal,
        decompress: false,
      });
      const replyHeaders = new Headers(reply.headers);
      for (const name of NOT_FORWARDED) replyHeaders.delete(name);
      return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers: replyHeaders });
    } catch (error) {
      if (request.signal.aborted) return new Response(null, { status: 499 });
      return Response.json(
        { error: { message: `upstream unreachable: ${error}`, type: "forwarder_error" } },
        { status: 502 },
      );
    }
  },
});

console.log(`forwarder listening on ${server.url.origin}, upstream ${upstream}`);
