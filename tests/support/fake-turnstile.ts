export interface FakeTurnstile {
  /** The address to set as TURNSTILE_VERIFY_URL. */
  url: string;
  /** Tokens the widget would have handed out; each verifies once, as Cloudflare's do. */
  issue(token: string): void;
  /** What the gateway sent, in order. */
  seen: { secret: string; response: string; remoteip: string }[];
  stop(): Promise<void>;
}

/** A loopback siteverify: checks the secret key and the token (single use), and answers as Cloudflare does. */
export function startFakeTurnstile(secret: string): FakeTurnstile {
  const valid = new Set<string>();
  const seen: FakeTurnstile["seen"] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      if (request.method !== "POST") return new Response("method not allowed", { status: 405 });
      const form = new URLSearchParams(await request.text());
      const entry = {
        secret: form.get("secret") ?? "",
        response: form.get("response") ?? "",
        remoteip: form.get("remoteip") ?? "",
      };
      seen.push(entry);
      if (entry.secret !== secret) return Response.json({ success: false, "error-codes": ["invalid-input-secret"] });
      if (!valid.delete(entry.response))
        return Response.json({ success: false, "error-codes": ["invalid-input-response"] });
      return Response.json({ success: true, "error-codes": [], hostname: "localhost" });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/turnstile/v0/siteverify`,
    issue: (token) => void valid.add(token),
    seen,
    stop: () => server.stop(true),
  };
}
