import { describe, expect, test } from "bun:test";
import { relayStream, type StreamOutcome } from "../../src/gateway/relay/stream";
import type { BodySink, ChunkReader, PushReader } from "../../src/gateway/upstream/reply";

/**
 * A stream's quiet gaps: pings and the idle limit count from the upstream's last chunk, so chunks that keep coming
 * closer together than either hold them off however long the stream runs, in both relays (the one the upstream
 * pushes to and the one that reads).
 */

const chunk = (n: number) =>
  `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: `w${n} ` } }] })}\n\n`;
const DONE = "data: [DONE]\n\n";
const encoder = new TextEncoder();

/** What the upstream sends: `chunks` chunks `gapMs` apart, then after `quietMs` [DONE] (nothing more when null). */
interface Script {
  chunks: number;
  gapMs: number;
  quietMs: number | null;
}

async function play(script: Script, send: (text: string) => void, cancelled: () => boolean): Promise<void> {
  for (let n = 0; n < script.chunks && !cancelled(); n++) {
    await Bun.sleep(script.gapMs);
    send(chunk(n));
  }
  if (script.quietMs === null) return;
  await Bun.sleep(script.quietMs);
  if (!cancelled()) send(DONE);
}

/** An upstream that pushes its chunks to the relay as they come (like the upstream client's reply). */
function pushing(script: Script): PushReader {
  let cancelled = false;
  let sink: BodySink | undefined;
  return {
    read: () => new Promise(() => {}),
    cancel: async () => {
      cancelled = true;
    },
    attach(to) {
      sink = to;
      void play(
        script,
        (text) => {
          const bytes = Buffer.from(text);
          sink!.bytes(bytes, 0, bytes.length);
        },
        () => cancelled,
      );
    },
    pause() {},
    resume() {},
  };
}

/** An upstream the relay reads chunk by chunk. */
function reading(script: Script): ChunkReader {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      void play(
        script,
        (text) => controller.enqueue(encoder.encode(text)),
        () => cancelled,
      );
    },
    cancel() {
      cancelled = true;
    },
  }).getReader();
}

async function relayed(upstream: ChunkReader, limits: { idleTimeoutMs: number; pingSeconds: number }) {
  let outcome: StreamOutcome | undefined;
  const body = await relayStream({
    kind: "chat",
    upstream,
    clientWantsUsage: false,
    startedAt: Date.now(),
    drainMs: 1000,
    ...limits,
    synthesizeUsage: () => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 }),
    onEnd: (o) => (outcome = o),
  });
  expect(body).toBeInstanceOf(ReadableStream);
  const text = await new Response(body as ReadableStream).text();
  return { text, end: outcome!.end };
}

const allChunks = (count: number) => Array.from({ length: count }, (_, n) => chunk(n)).join("");

for (const [relay, upstream] of [
  ["pushed", pushing],
  ["read", reading],
] as const) {
  describe(`quiet gaps of a ${relay} stream`, () => {
    test("chunks closer together than the idle limit keep the stream open for longer than it", async () => {
      const { text, end } = await relayed(upstream({ chunks: 40, gapMs: 10, quietMs: 0 }), {
        idleTimeoutMs: 250,
        pingSeconds: 0,
      });
      expect(text).toBe(allChunks(40) + DONE);
      expect(end).toBe("done");
    });

    test("a stream that goes quiet after its chunks times out, with every chunk forwarded", async () => {
      const { text, end } = await relayed(upstream({ chunks: 40, gapMs: 10, quietMs: null }), {
        idleTimeoutMs: 250,
        pingSeconds: 0,
      });
      expect(text).toBe(allChunks(40));
      expect(end).toBe("timeout");
    });

    test("pings go out in a quiet gap, not while chunks keep coming", async () => {
      const { text, end } = await relayed(upstream({ chunks: 40, gapMs: 10, quietMs: 700 }), {
        idleTimeoutMs: 10_000,
        pingSeconds: 0.25,
      });
      const pingsAt = text.indexOf(": PING");
      expect(pingsAt).toBe(allChunks(40).length);
      expect(text.endsWith(DONE)).toBe(true);
      expect(text.slice(pingsAt, -DONE.length).replaceAll(": PING\n\n", "")).toBe("");
      expect(end).toBe("done");
    });
  });
}
