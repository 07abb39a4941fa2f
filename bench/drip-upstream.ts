/**
 * A fake OpenAI chat upstream paced like a real model, for the open-streams bench: a stream waits
 * --first-ms before its first token, then sends --chunks chunks --interval-ms apart, then a usage chunk
 * and [DONE]; a non-stream call answers after --latency-ms. Each content chunk carries its send time
 * (`"content":"@<ms>"`, performance.timeOrigin + now), so a client can tell the fake's own gaps from
 * what the path between added. Timers chain per stream without promises, to keep the fake's cost per
 * chunk down (it shares a core with the client).
 * --dialect anthropic streams Anthropic Messages events instead, as Anthropic's API writes them: message_start and
 * the text block's start at once, then the text deltas (`"text":"@<ms> "`), then the block's stop, the message's
 * delta with its output tokens and message_stop.
 *
 *   bun bench/drip-upstream.ts --port P [--first-ms 2000] [--chunks 100] [--interval-ms 20] [--latency-ms 10000]
 *                              [--dialect openai|anthropic]
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
    dialect: { type: "string" },
  },
});
const firstMs = Number(values["first-ms"] ?? 2000);
const chunks = Number(values.chunks ?? 100);
const intervalMs = Number(values["interval-ms"] ?? 20);
const latencyMs = Number(values["latency-ms"] ?? 10_000);

const now = () => (performance.timeOrigin + performance.now()).toFixed(3);
const HEAD = 'data: {"id":"chatcmpl-drip","object":"chat.completion.chunk","created":1700000000,"model":"bench-model",';
/** What a stream sends: before its first token, each content chunk, and after the last. */
interface Script {
  opening: string;
  chunk(): string;
  tail: string;
}
const OPENAI: Script = {
  opening: "",
  chunk: () => `${HEAD}"choices":[{"index":0,"delta":{"content":"@${now()} "},"finish_reason":null}]}\n\n`,
  tail:
    `${HEAD}"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],` +
    `"usage":{"prompt_tokens":9,"completion_tokens":${chunks},"total_tokens":${chunks + 9}}}\n\ndata: [DONE]\n\n`,
};
const anthropicEvent = (type: string, fields: string) => `event: ${type}\ndata: {"type":"${type}"${fields}}\n\n`;
const ANTHROPIC: Script = {
  opening:
    anthropicEvent(
      "message_start",
      ',"message":{"id":"msg_drip","type":"message","role":"assistant","model":"bench-claude","content":[],' +
        '"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":9,"output_tokens":1}}',
    ) + anthropicEvent("content_block_start", ',"index":0,"content_block":{"type":"text","text":""}'),
  chunk: () => anthropicEvent("content_block_delta", `,"index":0,"delta":{"type":"text_delta","text":"@${now()} "}`),
  tail:
    anthropicEvent("content_block_stop", ',"index":0') +
    anthropicEvent(
      "message_delta",
      `,"delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":${chunks}}`,
    ) +
    anthropicEvent("message_stop", ""),
};
const script = values.dialect === "anthropic" ? ANTHROPIC : OPENAI;
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
              controller.write(script.tail);
              controller.close();
              return stop();
            }
            controller.write(script.chunk());
            controller.flush();
          } catch {
            return stop();
          }
          sent++;
          timer = setTimeout(step, intervalMs);
        };
        if (script.opening) {
          controller.write(script.opening);
          controller.flush();
        }
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
console.log(
  `drip upstream (${values.dialect ?? "openai"}) on ${server.url.origin}: first ${firstMs} ms, ${chunks} chunks ${intervalMs} ms apart`,
);
