/**
 * A streamed reply mapped as it arrives (MappedReader): read or pushed, the bytes `mapEventStream` gives for the
 * same upstream bytes, however the network cut them; an upstream's failure and a mapping's failure reach the sink.
 */
import { describe, expect, test } from "bun:test";
import { mapEventStream } from "../../src/gateway/relay/providers/event-stream";
import { MappedReader, mappedReader } from "../../src/gateway/relay/providers/mapped-reader";
import { streamMapper } from "../../src/gateway/relay/providers/anthropic/stream";
import { MAX_EVENT_CHARS } from "../../src/gateway/relay/sse";
import type { BodySink, PushReader } from "../../src/gateway/upstream/reply";

const event = (type: string, fields: string) => `event: ${type}\ndata: {"type":"${type}"${fields}}\n\n`;
const ANTHROPIC_STREAM =
  event("message_start", ',"message":{"id":"msg_1","model":"claude-x","usage":{"input_tokens":9,"output_tokens":1}}') +
  event("content_block_start", ',"index":0,"content_block":{"type":"text","text":""}') +
  event("content_block_delta", ',"index":0,"delta":{"type":"text_delta","text":"Héllo 🌍"}') +
  event("content_block_delta", ',"index":0,"delta":{"type":"text_delta","text":" \\"there\\""}') +
  event("content_block_stop", ',"index":0') +
  event("message_delta", ',"delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}') +
  event("message_stop", "");
const BYTES = new TextEncoder().encode(ANTHROPIC_STREAM);

/** A reply that pushes its chunks (as the upstream client's does) once attached to, or hands them to reads. */
class ChunkedReply implements PushReader {
  released = false;
  cancelled = false;
  paused = false;
  private next = 0;

  constructor(
    private readonly chunks: Uint8Array[],
    private readonly failure?: Error,
  ) {}

  async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    if (this.next < this.chunks.length) return { done: false, value: this.chunks[this.next++]! };
    if (this.failure) throw this.failure;
    return { done: true, value: undefined };
  }

  attach(sink: BodySink): void {
    for (; this.next < this.chunks.length && !this.cancelled; this.next++) {
      const chunk = Buffer.from(this.chunks[this.next]!);
      // The part sits inside a larger buffer, as a chunked body's data does inside the socket's chunk.
      const framed = Buffer.concat([Buffer.from("5\r\n"), chunk, Buffer.from("\r\n")]);
      sink.bytes(framed, 3, 3 + chunk.length);
    }
    if (!this.cancelled) sink.end(this.failure);
  }

  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
  async cancel(): Promise<void> {
    this.cancelled = true;
  }
  release(): void {
    this.released = true;
  }
}

/** The text with each chunk's `created` second left out: two mappings made a second apart differ there alone. */
const timeless = (text: string) => text.replaceAll(/"created":\d+/g, '"created":0');

const cuts = (bytes: Uint8Array, at: number[]) =>
  [0, ...at, bytes.length].slice(1).map((end, i) => bytes.subarray([0, ...at][i]!, end));

async function viaWebStreams(chunks: Uint8Array[]): Promise<string> {
  const upstream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return timeless(await new Response(mapEventStream(upstream, streamMapper("m"))).text());
}

/**
 * What a sink is pushed: as bytes, or (`asText`) as text where the sink takes text, each part then whole events
 * (the relay splits what it is handed as a stream's events, but forwards a part of whole events as it is).
 */
function pushed(
  reply: ChunkedReply,
  asText = false,
): { text: () => string; ended: () => Error | "clean" | undefined; parts: () => string[] } {
  const parts: string[] = [];
  let ended: Error | "clean" | undefined;
  const sink: BodySink = {
    bytes: (source, start, end) => parts.push(source.toString("utf8", start, end)),
    end: (error) => {
      ended = error ?? "clean";
    },
  };
  if (asText) sink.text = (events) => parts.push(events);
  new MappedReader(reply, streamMapper("m")).attach(sink);
  return { text: () => timeless(parts.join("")), ended: () => ended, parts: () => parts };
}

async function read(reader: { read(): Promise<ReadableStreamReadResult<Uint8Array>> }): Promise<string> {
  const parts: Uint8Array[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return timeless(Buffer.concat(parts).toString("utf8"));
}

describe("a streamed reply mapped as it arrives", () => {
  test("pushed or read, the bytes the web-stream mapping gives, at every cut (characters cut too)", async () => {
    const whole = await viaWebStreams([BYTES]);
    expect(whole).toContain('"content":"Héllo 🌍"');
    expect(whole.endsWith("data: [DONE]\n\n")).toBe(true);
    for (let at = 1; at < BYTES.length; at++) {
      const chunks = cuts(BYTES, [at, Math.min(BYTES.length - 1, at + 3)]);
      const push = pushed(new ChunkedReply(chunks));
      expect({ at, text: push.text(), ended: push.ended() }).toEqual({ at, text: whole, ended: "clean" });
      const asText = pushed(new ChunkedReply(chunks), true);
      expect({ at, text: asText.text(), ended: asText.ended() }).toEqual({ at, text: whole, ended: "clean" });
      for (const part of asText.parts()) expect({ at, whole: part.endsWith("\n\n") }).toEqual({ at, whole: true });
      expect({ at, text: await read(new MappedReader(new ChunkedReply(chunks), streamMapper("m"))) }).toEqual({
        at,
        text: whole,
      });
    }
  });

  test("an upstream that fails mid-stream: what came is mapped, then the sink hears the failure (no [DONE])", () => {
    const failure = new Error("the upstream closed the connection before its reply was complete");
    const push = pushed(new ChunkedReply([BYTES.subarray(0, 400)], failure));
    expect(push.ended()).toBe(failure);
    expect(push.text()).toContain('"role":"assistant"');
    expect(push.text()).not.toContain("[DONE]");
  });

  test("an event too long to map gives the upstream up and fails the sink", () => {
    const reply = new ChunkedReply([new TextEncoder().encode(`data: ${"x".repeat(MAX_EVENT_CHARS + 10)}`)]);
    const push = pushed(reply);
    expect(push.ended()).toBeInstanceOf(Error);
    expect(reply.cancelled).toBe(true);
  });

  test("pause, resume and letting go reach the reply; a reply that cannot push is mapped through web streams", async () => {
    const reply = new ChunkedReply([BYTES]);
    const reader = new MappedReader(reply, streamMapper("m"));
    reader.pause();
    expect(reply.paused).toBe(true);
    reader.resume();
    expect(reply.paused).toBe(false);
    reader.release();
    expect(reply.released).toBe(true);
    expect(await reader.read()).toEqual({ done: true, value: undefined });

    const source = new ChunkedReply([BYTES]);
    const plain = { read: () => source.read(), cancel: () => source.cancel() };
    const mapped = mappedReader(plain, streamMapper("m"));
    expect("attach" in mapped).toBe(false);
    expect(await read(mapped)).toBe(await viaWebStreams([BYTES]));
  });
});
