import type { FakeUpstream } from "../../support/fake-upstream";

/** A loopback upstream that answers each POST with the next scripted reply (JSON or SSE text) and records what it got. */
export interface ScriptedUpstream {
  url: string;
  received: { path: string; body: any }[];
  reply(body: object | string): void;
  stop(): Promise<void>;
  /** The shape addChannel takes. */
  asFake(): FakeUpstream;
}

export function startScriptedUpstream(): ScriptedUpstream {
  const queue: (object | string)[] = [];
  const received: { path: string; body: any }[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      received.push({ path: new URL(request.url).pathname, body: await request.json() });
      const next = queue.shift();
      if (next === undefined) return Response.json({ error: { message: "nothing scripted" } }, { status: 500 });
      if (typeof next === "string") return new Response(next, { headers: { "content-type": "text/event-stream" } });
      return Response.json(next);
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    received,
    reply: (body) => queue.push(body),
    stop: () => server.stop(true),
    asFake: () => ({ url }) as FakeUpstream,
  };
}
