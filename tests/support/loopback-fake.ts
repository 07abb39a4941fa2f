import type { FakeUpstream } from "./fake-upstream";

/** What a fake upstream saw of one call. */
export interface SeenRequest {
  /** The whole address, query included. */
  url: string;
  path: string;
  headers: Record<string, string>;
  body: any;
}

/** A request-shape check failed: the fake answers 400 with the reason, as a real upstream would refuse it. */
export class ShapeError extends Error {}

export const expectShape = (ok: unknown, why: string) => {
  if (!ok) throw new ShapeError(why);
};

export interface LoopbackFake {
  url: string;
  requests: SeenRequest[];
  stop(): Promise<void>;
  /** The shape the relay tests' addChannel takes. */
  asFake(): FakeUpstream;
}

/**
 * A loopback upstream that checks the bearer key (401 otherwise, as the real ones do), records each call and
 * answers it with `answer`; a ShapeError becomes a 400 naming what was wrong.
 */
export function startLoopbackFake(key: string, answer: (seen: SeenRequest) => Response): LoopbackFake {
  const requests: SeenRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const seen: SeenRequest = {
        url: request.url,
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers),
        body: await request.json().catch(() => undefined),
      };
      requests.push(seen);
      if (seen.headers.authorization !== `Bearer ${key}`)
        return Response.json({ message: "invalid api token", code: "unauthorized" }, { status: 401 });
      try {
        return answer(seen);
      } catch (error) {
        if (error instanceof ShapeError) return Response.json({ message: error.message }, { status: 400 });
        throw error;
      }
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return { url, requests, stop: () => server.stop(true), asFake: () => ({ url }) as FakeUpstream };
}

/** An SSE reply of named events (`event:` line, JSON data). */
export const namedEvents = (events: [string, object][]) =>
  new Response(events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(""), {
    headers: { "content-type": "text/event-stream" },
  });

/** An SSE reply of data-only events, then `tail` (e.g. OpenAI's "data: [DONE]\n\n"). */
export const dataEvents = (events: object[], tail = "") =>
  new Response(events.map((data) => `data: ${JSON.stringify(data)}\n\n`).join("") + tail, {
    headers: { "content-type": "text/event-stream" },
  });
