/** A Gemini upstream that only embeds: each text part's word count as one value, its requests recorded. */
export interface EmbedUpstream {
  url: string;
  requests: { path: string; body: unknown }[];
  stop(): void;
}

export function startGeminiEmbedUpstream(apiKey: string): EmbedUpstream {
  const requests: EmbedUpstream["requests"] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      if (request.headers.get("x-goog-api-key") !== apiKey)
        return Response.json(
          { error: { code: 401, message: "API key not valid", status: "UNAUTHENTICATED" } },
          { status: 401 },
        );
      const body = (await request.json()) as { content?: { parts?: { text?: string }[] } };
      requests.push({ path: url.pathname, body });
      if (!url.pathname.endsWith(":embedContent"))
        return Response.json({ error: { code: 404, message: "not found", status: "NOT_FOUND" } }, { status: 404 });
      const words = (body.content?.parts ?? []).flatMap((p) => (p.text ?? "").split(" "));
      return Response.json({ embedding: { values: words.map((_, i) => i + 1) } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
