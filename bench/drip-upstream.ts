/**
 * A fake OpenAI chat upstream paced like a real model, for the open-streams bench: a stream waits
 * --first-ms before its first token, then sends --chunks chunks --interval-ms apart, then a usage chunk
 * and [DONE]; a non-stream call answers after --latency-ms. Each content chunk carries its send time
 * (`"content":"@<ms>"`, performance.timeOrigin + now), so a client can tell the fake's own gaps from
 * what the path between added. Timers chain per stream without promises, to keep the fake's cost per
 * chunk down (it shares a core with the client).
 *
 *   bun bench/drip-upstream.ts --port P [--first-ms 2000] [--chunks 100] [--interval-ms 20] [--latency-ms 10000]
 */
import { parseArgs } from "node:util";
import { directStream } from "../src/gateway/relay/direct-stream";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "first-ms": { type: "string" },
    chunks: { type: "string" },
    "interval-ms": { type: "string" },
    "latency-ms": { type: "string" },
  },
});
const firstMs = Number(values["first-ms"] ?? 2000);
const chunks = Number(values.chunks ?? 100);
const intervalMs = Number(values["interval-ms"] ?? 20);
const latencyMs = Number(values["latency-ms"] ?? 10_000);

const now = () => (performance.timeOrigin + performance.now()).toFixed(3);
const HEAD = 'data: {"id":"chatcmpl-drip","object":"chat.completion.chunk","created":1700000000,"model":"bench-model",';
const chunk = () => `${HEAD}"choices":[{"index":0,"delta":{"content":"@${now()} "},"finish_reason":null}]}\n\n`;
const TAIL =
  `${HEAD}"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],` +
  `"usage":{"prompt_tokens":9,"completion_tokens":${chunks},"total_tokens":${chunks + 9}}}\n\ndata: [DONE]\n\n`;
const REPLY = JSON.stringify({
  id: "chatcmpl-drip",
  object: "chat.completion",
  created: 1700000000,
  model: "bench-model",
  choices: [{ index: 0, message: { role: "assistant", content: "a slow answer" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
});
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };
const JSON_HEADERS = { "content-type": "application/json" };

function drip(): ReadableStream {
  let stop = () => {};
  return directStream({
    type: "direct",
    pull(controller) {
      return new Promise<void>((resolve) => {
        let sent = 0;
        let timer: Timer | undefined;
        stop = () => {
          clearTimeout(timer);
          resolve();
        };
        const step = () => {
          try {
            if (sent === chunks) {
              controller.write(TAIL);
              controller.close();
              return stop();
            }
            controller.write(chunk());
            controller.flush();
          } catch {
            return stop();
          }
          sent++;
          timer = setTimeout(step, intervalMs);
        };
        timer = setTimeout(step, firstMs);
      });
    },
    cancel: () => stop(),
  });
}

const server = Bun.serve({
  port: Number(values.port ?? 0),
  hostname: "127.0.0.1",
  idleTimeout: 0,
  async fetch(request) {
    if (request.method !== "POST") return new Response("drip upstream");
    const body = (await request.json()) as { stream?: boolean };
    if (body.stream) return new Response(drip(), { headers: SSE_HEADERS });
    await Bun.sleep(latencyMs);
    return new Response(REPLY, { headers: JSON_HEADERS });
  },
});
console.log(`drip upstream on ${server.url.origin}: first ${firstMs} ms, ${chunks} chunks ${intervalMs} ms apart`);
