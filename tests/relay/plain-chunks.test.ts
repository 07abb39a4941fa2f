import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { GC_LOG_ENV, GcLog } from "../../bench/gc-log";
import { StreamEvents } from "../../src/gateway/relay/stream-events";
import type { StreamOptions } from "../../src/gateway/relay/stream-outcome";

const options = { kind: "chat", clientWantsUsage: false, startedAt: 0 } as StreamOptions;
const chat = (delta: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta }] })}\n\n`;
const usage = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })}\n\n`;

/** Streams whose chunks the byte path may read (or must leave to the splitter), each chunk as the upstream sent it. */
const STREAMS: Record<string, (string | Uint8Array)[]> = {
  "plain ASCII chunks": [
    chat({ role: "assistant", content: "" }),
    chat({ content: "Hello" }),
    chat({ content: " world" }),
  ],
  "Chinese text": [chat({ content: "你好" }), chat({ content: "，世界" }), "data: [DONE]\n\n"],
  "escapes and quotes": [chat({ content: 'say "hi"\n' }), chat({ content: "tab\there" }), chat({ content: "ok" })],
  "reasoning text": [chat({ reasoning_content: "think" }), chat({ content: "answer" })],
  "a usage report at the end": [chat({ content: "a" }), chat({ content: "b" }), usage, "data: [DONE]\n\n"],
  "two events in one chunk": [chat({ content: "a" }) + chat({ content: "b" }), chat({ content: "c" })],
  "CRLF line ends": [chat({ content: "a" }).replaceAll("\n", "\r\n"), chat({ content: "b" })],
  "an event cut in two": [
    chat({ content: "abc" }).slice(0, 20),
    chat({ content: "abc" }).slice(20),
    chat({ content: "d" }),
  ],
  "named events and comments": [`event: delta\n${chat({ content: "a" })}`, ": PING\n\n", chat({ content: "b" })],
  "a character cut between chunks": [
    Buffer.from(chat({ content: "€uro" })).subarray(0, 50),
    Buffer.from(chat({ content: "€uro" })).subarray(50),
    chat({ content: "x" }),
  ],
  "invalid UTF-8": [chat({ content: "a" }), Buffer.from(chat({ content: "bXc" }).replace("X", "\u00ff"), "latin1")],
  "a byte order mark first": [`\uFEFF${chat({ content: "a" })}`, chat({ content: "b" })],
};

const bytesOf = (chunk: string | Uint8Array) => (typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));

/** The stream read as a pushed upstream's socket hands it over: each chunk between its chunked coding's framing. */
function throughSockets(chunks: (string | Uint8Array)[]) {
  const events = new StreamEvents(options);
  const out: Buffer[] = [];
  for (const chunk of chunks) {
    const part = bytesOf(chunk);
    const socket = Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n0\r\n")]);
    const start = socket.indexOf("\n") + 1;
    const taken = events.takeChunk(socket, start, start + part.length);
    out.push(typeof taken === "string" ? Buffer.from(taken) : Buffer.from(taken));
  }
  out.push(Buffer.from(events.takeRest()));
  return { out: Buffer.concat(out), outcome: events.outcome, sawDone: events.sawDone };
}

/** The same stream read by the splitter alone, chunk by chunk (a read upstream's path). */
function throughSplitter(chunks: (string | Uint8Array)[]) {
  const events = new StreamEvents(options);
  const out: Buffer[] = [];
  for (const chunk of chunks) out.push(Buffer.from(events.take({ done: false, value: bytesOf(chunk) })));
  out.push(Buffer.from(events.takeRest()));
  return { out: Buffer.concat(out), outcome: events.outcome, sawDone: events.sawDone };
}

describe("a chunk of one plain chat event is read in its bytes", () => {
  for (const [name, chunks] of Object.entries(STREAMS)) {
    test(`${name}: the client gets the same bytes and billing the same text and usage as by the splitter`, () => {
      const bytes = throughSockets(chunks);
      const text = throughSplitter(chunks);
      expect(bytes.out.toString("latin1")).toBe(text.out.toString("latin1"));
      expect(bytes.outcome.text).toBe(text.outcome.text);
      expect(bytes.outcome.usage).toEqual(text.outcome.usage);
      expect(bytes.outcome.firstResponseMs >= 0).toBe(text.outcome.firstResponseMs >= 0);
      expect(bytes.sawDone).toBe(text.sawDone);
    });
  }

  test("the usual chunk's text is kept from its bytes, and the chunk goes out as it came", () => {
    const events = new StreamEvents(options);
    const first = Buffer.from(chat({ role: "assistant", content: "" }));
    events.takeChunk(first, 0, first.length);
    for (const content of ["hello there", "你好 there"]) {
      const chunk = Buffer.from(`xx${chat({ content })}yy`);
      const taken = events.takeChunk(chunk, 2, chunk.length - 2);
      expect(Buffer.from(taken).toString()).toBe(chat({ content }));
    }
    expect(events.outcome.text).toBe("hello there你好 there");
  });

  test("the usual chunk costs the collector under 130 bytes, what its kept text and reply take", async () => {
    // The collector's own count of bytes allocated, steady from run to run: 84 a chunk here (the text's growing
    // buffer, the reply's string); 196 when each chunk was decoded, split into events and its data and text sliced.
    const proc = Bun.spawn({
      cmd: [process.execPath, join(import.meta.dir, "plain-chunks-run.ts")],
      env: { ...process.env, ...GC_LOG_ENV },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [written, log] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    expect(await proc.exited).toBe(0);
    expect(Number(written)).toBeGreaterThan(300_000 * 100);
    const gc = new GcLog();
    for (const line of log.split("\n")) gc.take(line);
    expect(gc.now().allocatedBytes / 300_000).toBeLessThan(130);
  });
});
