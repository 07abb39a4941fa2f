import { describe, expect, test } from "bun:test";
import { mapEventStream } from "../../src/gateway/relay/providers/event-stream";
import { StreamEvents } from "../../src/gateway/relay/stream-events";
import type { StreamOptions } from "../../src/gateway/relay/stream-outcome";

/** A chat stream from an upstream that ends its lines with CRLF and spreads its usage report over two data lines. */
const UPSTREAM = [
  'data: {"choices":[{"index":0,"delta":{"content":"h€llo"}}]}',
  'data: {"choices":[],\r\ndata: "usage":{"prompt_tokens":11,"completion_tokens":2,"total_tokens":13}}',
  "data: [DONE]",
]
  .map((event) => `${event}\r\n\r\n`)
  .join("");
const BYTES = new TextEncoder().encode(UPSTREAM);

/** The stream cut once at `at`. */
const cutAt = (at: number): Uint8Array[] => [BYTES.subarray(0, at), BYTES.subarray(at)];

const streamOf = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

describe("the SSE reader's users lose no event, wherever the network cuts the stream", () => {
  test("a provider's event mapping sees every event's whole data, cut at every byte offset", async () => {
    for (let at = 0; at <= BYTES.length; at++) {
      const seen: unknown[] = [];
      const mapped = mapEventStream(streamOf(cutAt(at)), {
        event: (data) => {
          seen.push(JSON.parse(data === "[DONE]" ? '"[DONE]"' : data));
          return "";
        },
        end: () => "end",
      });
      expect(await new Response(mapped).text()).toBe("end");
      expect<unknown[]>([at, seen.length, seen.at(1)]).toEqual([
        at,
        3,
        { choices: [], usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } },
      ]);
    }
  });

  test("the relayed stream keeps the upstream's usage report for billing, cut at every byte offset", () => {
    for (let at = 0; at <= BYTES.length; at++) {
      const events = new StreamEvents({ kind: "chat", clientWantsUsage: true, startedAt: 0 } as StreamOptions);
      let out = "";
      for (const chunk of cutAt(at)) out += events.take({ done: false, value: chunk });
      out += events.take({ done: true, value: undefined });
      expect([at, events.outcome.usage?.promptTokens, events.outcome.usage?.completionTokens]).toEqual([at, 11, 2]);
      expect(out.endsWith("data: [DONE]\n\n")).toBe(true);
    }
  });

  test("a pushed stream's chunks, each a part of a socket's bytes, go out as exactly their bytes, cut at every byte offset", () => {
    const content = (text: string) => `data: {"choices":[{"index":0,"delta":{"content":"${text}"}}]}\n\n`;
    const encoder = new TextEncoder();
    const upstream = encoder.encode([content("ok"), content("h€llo"), content("ok"), "data: [DONE]\n\n"].join(""));
    const doneAt = upstream.length - "data: [DONE]\n\n".length;
    // Cut at every offset before [DONE], and before it: a chunk of whole events that go out as they came, ASCII or not, comes between.
    for (let at = 1; at < doneAt; at++) {
      const events = new StreamEvents({ kind: "chat", clientWantsUsage: false, startedAt: 0 } as StreamOptions);
      const out: Uint8Array[] = [];
      for (const part of [upstream.subarray(0, at), upstream.subarray(at, doneAt), upstream.subarray(doneAt)]) {
        // The part as it sits in the socket's bytes: between its chunk's size line and the CRLF that ends it.
        const socket = Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]);
        const start = socket.indexOf("\n") + 1;
        const taken = events.takeChunk(socket, start, start + part.length);
        out.push(typeof taken === "string" ? Buffer.from(taken) : taken);
      }
      expect([at, Buffer.concat(out).toString()]).toEqual([at, Buffer.from(upstream).toString()]);
    }
  });
});
