import { afterEach, describe, expect, test } from "bun:test";
import type { Socket, TCPSocketListener } from "bun";
import { relayStream, type StreamOutcome } from "../../src/gateway/relay/stream";
import { postUpstream } from "../../src/gateway/upstream/client";
import { canPush } from "../../src/gateway/upstream/reply";
import { relayToEnd } from "../support/relay-stream";

/**
 * Streams relayed from the upstream client's reply, which pushes each body chunk to the relay as it arrives:
 * what the client gets must be what the relay that reads chunk by chunk gives for the same bytes.
 */

const HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
const frame = (bytes: Buffer) =>
  Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]);
const chunk = (content: string) =>
  `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] })}\n\n`;
const usageChunk = `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } })}\n\n`;

const servers: { stop(force?: boolean): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

/**
 * An upstream that answers each request with an event stream sent as `pieces`, each in its own chunk a few ms
 * after the last (so each is its own read), then the end of the body.
 */
function dripping(pieces: Buffer[], gapMs = 15): string {
  const server: TCPSocketListener<undefined> = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      async data(socket) {
        socket.write(HEAD);
        for (const piece of pieces) {
          await Bun.sleep(gapMs);
          socket.write(frame(piece));
        }
        await Bun.sleep(gapMs);
        socket.write("0\r\n\r\n");
      },
    },
  });
  servers.push(server);
  return `http://127.0.0.1:${server.port}`;
}

/** The pieces' bytes cut at the given byte offsets. */
function cut(text: string, ...at: number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const ends = [...at, bytes.length];
  return ends.map((end, i) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end));
}

function options(upstream: Awaited<ReturnType<typeof postUpstream>>, onEnd: (o: StreamOutcome) => void) {
  return {
    kind: "chat" as const,
    upstream: upstream.reader(),
    clientWantsUsage: false,
    startedAt: Date.now(),
    idleTimeoutMs: 5000,
    drainMs: 1000,
    pingSeconds: 0,
    synthesizeUsage: () => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 }),
    onEnd,
  };
}

/** Relays the upstream at `url` through the pushed path to the end: what the client got and what billing saw. */
async function pushed(url: string, onEnd?: (o: StreamOutcome) => void) {
  const reply = await postUpstream(`${url}/v1/chat/completions`, {}, "{}");
  expect(canPush(reply.reader())).toBe(true);
  let outcome: StreamOutcome | undefined;
  const body = await relayStream(
    options(reply, (o) => {
      outcome = { ...o, text: o.text };
      onEnd?.(o);
    }),
  );
  expect(body).toBeInstanceOf(ReadableStream);
  return { bytes: Buffer.from(await new Response(body).arrayBuffer()), outcome: outcome! };
}

/** The same pieces through the relay that reads chunk by chunk. */
async function pulled(pieces: Buffer[]) {
  const queue = [...pieces];
  const upstream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await Bun.sleep(2);
      const next = queue.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(new Uint8Array(next));
    },
  });
  const { body, outcome } = await relayToEnd(upstream);
  return { bytes: Buffer.from(body), outcome };
}

describe("a stream pushed by the upstream client", () => {
  const stream = `${chunk("héllo ")}${chunk("wörld ")}${chunk("数字")}${usageChunk}data: [DONE]\n\n`;
  const cases: [string, Buffer[]][] = [
    [
      "one event per read",
      [chunk("héllo "), chunk("wörld "), chunk("数字"), usageChunk, "data: [DONE]\n\n"].map((s) => Buffer.from(s)),
    ],
    ["an event split across reads", cut(stream, 20, 61)],
    [
      "a multi-byte character split across reads",
      cut(stream, stream.indexOf("é") + 1, Buffer.byteLength(stream.slice(0, stream.indexOf("数"))) + 2),
    ],
    ["a read ending between an event's two line ends", cut(stream, Buffer.byteLength(chunk("héllo ")) - 1)],
    [
      "CRLF line ends, one cut between its CR and LF",
      cut(stream.replaceAll("\n", "\r\n"), 10, Buffer.byteLength(chunk("héllo ")) * 2 - 1),
    ],
    ["the whole stream in one read", [Buffer.from(stream)]],
  ];
  for (const [name, pieces] of cases) {
    test(`${name}: the client gets the same bytes as from the relay that reads, and billing sees the usage`, async () => {
      const got = await pushed(dripping(pieces));
      const expected = await pulled(pieces);
      expect(got.bytes.toString()).toBe(expected.bytes.toString());
      expect(got.bytes.equals(expected.bytes)).toBe(true);
      expect(got.bytes.toString()).toBe(`${chunk("héllo ")}${chunk("wörld ")}${chunk("数字")}data: [DONE]\n\n`);
      expect(got.outcome.usage?.completionTokens).toBe(4);
      expect(got.outcome.end).toBe("done");
    });
  }

  test("without usage from the upstream, the text pushed is kept for the count, even cut inside a character", async () => {
    const text = `${chunk("日本")}${chunk("語 ")}data: [DONE]\n\n`;
    const { bytes, outcome } = await pushed(dripping(cut(text, text.indexOf("本") + 4)));
    expect(bytes.toString()).toBe(text);
    expect(outcome.text).toBe("日本語 ");
  });

  test("an upstream that ends without [DONE] ends the stream with what it sent (eof)", async () => {
    const { bytes, outcome } = await pushed(dripping([Buffer.from(chunk("a")), Buffer.from('data: {"tail":1}')]));
    expect(bytes.toString()).toBe(`${chunk("a")}data: {"tail":1}\n\n`);
    expect(outcome.end).toBe("eof");
  });

  test("a charge that cannot be recorded leaves the client without [DONE]", async () => {
    const pieces = [chunk("hello "), usageChunk, "data: [DONE]\n\n"].map((s) => Buffer.from(s));
    const { bytes } = await pushed(dripping(pieces), () => {
      throw new Error("the journal cannot be written");
    });
    expect(bytes.toString()).toContain("hello ");
    expect(bytes.toString()).not.toContain("[DONE]");
  });
});

test("a client that does not read pauses the upstream, and gets every byte once it reads", async () => {
  const event = chunk("x".repeat(4000));
  const batches = 500; // ~32 MB: more than the sockets' buffers on the way hold
  const batch = frame(Buffer.from(event.repeat(16)));
  const last = Buffer.concat([batch, frame(Buffer.from("data: [DONE]\n\n")), Buffer.from("0\r\n\r\n")]);
  let sent = 0;
  /** Writes batches while the socket takes them whole; the rest when it drains. */
  const write = (socket: Socket<{ unsent?: Buffer }>) => {
    for (let next = socket.data.unsent; ; next = undefined) {
      if (!next) {
        if (sent === batches) return;
        sent++;
        next = sent === batches ? last : batch;
      }
      const written = Math.max(0, socket.write(next));
      socket.data.unsent = written < next.length ? next.subarray(written) : undefined;
      if (socket.data.unsent) return;
    }
  };
  const upstream = Bun.listen<{ unsent?: Buffer }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket) {
        socket.data = {};
        socket.write(HEAD);
        write(socket);
      },
      drain: write,
    },
  });
  servers.push(upstream);
  const gateway = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch() {
      const reply = await postUpstream(`http://127.0.0.1:${upstream.port}/v1/chat/completions`, {}, "{}");
      return new Response(await relayStream(options(reply, () => {})));
    },
  });
  servers.push(gateway);
  let received = 0;
  let tail = "";
  const { promise: ended, resolve: end } = Promise.withResolvers<void>();
  const client = await Bun.connect({
    hostname: "127.0.0.1",
    port: Number(gateway.port),
    socket: {
      data(_socket, data) {
        received += data.length;
        tail = (tail + data.toString("latin1")).slice(-64);
        if (tail.endsWith("\r\n0\r\n\r\n")) end();
      },
      close: () => end(),
    },
  });
  client.write("GET / HTTP/1.1\r\nHost: gateway\r\n\r\n");
  client.pause();
  await Bun.sleep(1000);
  // The gateway stopped taking the upstream's bytes while its client read nothing.
  expect(sent).toBeLessThan(batches);
  client.resume();
  await ended;
  client.end();
  expect(sent).toBe(batches);
  expect(tail).toContain("data: [DONE]\n\n");
  expect(received).toBeGreaterThan(batches * 16 * event.length);
});
