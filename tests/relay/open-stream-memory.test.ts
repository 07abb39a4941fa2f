import { afterAll, beforeAll, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { startRelayEnv, type RelayEnv } from "./support";

const PROMPT_BYTES = 64 * 1024;
const STREAMS = 20;
const encoder = new TextEncoder();

let env: RelayEnv;
let upstream: ReturnType<typeof Bun.serve>;
let releaseStreams!: () => void;
const streamsHeld = new Promise<void>((resolve) => (releaseStreams = resolve));

beforeAll(async () => {
  // An upstream that sends one chunk, then holds every stream open until the test lets them end.
  upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      await request.text();
      const body = new ReadableStream({
        async start(controller) {
          const chunk = { id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "hi" } }] };
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
          await streamsHeld;
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  env = await startRelayEnv("sqlite");
  await env.setPrices({ "held-model": 1 });
  await env.addChannel({ models: "held-model" }, { url: upstream.url.origin } as Parameters<RelayEnv["addChannel"]>[1]);
});

afterAll(async () => {
  releaseStreams();
  await env.stop();
  upstream.stop(true);
});

/** Opens a streamed call with a long prompt over a raw socket (nothing of it kept here) and waits for its first chunk. */
async function openStream(i: number): Promise<void> {
  const prompt = `call ${i}: ${"lorem ipsum ".repeat(PROMPT_BYTES / 12)}`;
  const body = JSON.stringify({ model: "held-model", stream: true, messages: [{ role: "user", content: prompt }] });
  const { port } = new URL(env.s.url);
  let received = "";
  const { promise, resolve, reject } = Promise.withResolvers<void>();
  await Bun.connect({
    hostname: "127.0.0.1",
    port: Number(port),
    socket: {
      open(socket) {
        socket.write(
          `POST /v1/chat/completions HTTP/1.1\r\nhost: gateway\r\nauthorization: Bearer ${env.key}\r\n` +
            `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      },
      data(_socket, bytes) {
        received += bytes.toString();
        if (received.includes("data:")) resolve();
        else if (received.startsWith("HTTP/1.1 4") || received.startsWith("HTTP/1.1 5")) reject(new Error(received));
      },
    },
  });
  return promise;
}

function liveHeap(): number {
  Bun.gc(true);
  const { heapSize, extraMemorySize } = heapStats();
  return heapSize + extraMemorySize;
}

test("an open stream does not keep its request: the live heap grows by far less than the prompt's copies per stream", async () => {
  await openStream(-1);
  const before = liveHeap();
  for (let i = 0; i < STREAMS; i++) await openStream(i);
  const perStream = (liveHeap() - before) / STREAMS;
  // Measured 160–170 KiB here (the fake upstream's side included); 427 KiB when the call's state stayed with the stream.
  expect(perStream).toBeLessThan(4 * PROMPT_BYTES);
});
