import { describe, expect, test } from "bun:test";
import { MAX_EVENT_CHARS } from "../../src/gateway/relay/sse";
import type { StreamOutcome } from "../../src/gateway/relay/stream";
import { relayToEnd } from "../support/relay-stream";

const chunk = (content: string) =>
  `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] })}\n\n`;
const usageChunk = `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } })}\n\n`;

/** An upstream stream of `parts`, each its own chunk, and a relay of it read to the end; answers what the relay saw. */
async function relay(parts: string[], failAtEnd = false): Promise<{ body: string; outcome: StreamOutcome }> {
  const encoder = new TextEncoder();
  const queue = [...parts];
  const upstream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next !== undefined) controller.enqueue(encoder.encode(next));
      else if (failAtEnd) controller.error(new Error("connection reset"));
      else controller.close();
    },
  });
  return relayToEnd(upstream);
}

describe("what a relayed stream keeps for billing", () => {
  test("a long stream without usage keeps all its text for the count, past the raw-event budget", async () => {
    const words = Array.from({ length: 4000 }, (_, i) => `word${i} `);
    const { body, outcome } = await relay([...words.map(chunk), "data: [DONE]\n\n"]);
    expect(outcome.usage).toBeUndefined();
    expect(outcome.text).toBe(words.join(""));
    expect(body.split("\n\n").filter(Boolean)).toHaveLength(words.length + 1);
    expect(outcome.end).toBe("done");
  });

  test("a read holding several events forwards each as it came, less the usage-only chunk among them", async () => {
    const comment = ": keep-alive\n\n";
    const parts = [chunk("a") + chunk("b"), chunk("c") + usageChunk + comment + chunk("d"), "data: [DONE]\n\n"];
    const { body, outcome } = await relay(parts);
    expect(body).toBe(`${chunk("a")}${chunk("b")}${chunk("c")}${chunk("d")}data: [DONE]\n\n`);
    expect(outcome.usage?.completionTokens).toBe(4);
  });

  test("once the upstream reports usage, the text is no longer needed and the usage chunk is not forwarded", async () => {
    const { body, outcome } = await relay([chunk("hello "), chunk("world"), usageChunk, "data: [DONE]\n\n"]);
    expect(outcome.usage).toEqual({ promptTokens: 3, completionTokens: 4, cachedTokens: 0, cacheWriteTokens: 0 });
    expect(outcome.text).toBe("");
    expect(body).not.toContain('"usage"');
  });

  test("an upstream that fails mid-stream ends the relay as an error, with what came before it forwarded", async () => {
    const { body, outcome } = await relay([chunk("partial ")], true);
    expect(outcome.end).toBe("error");
    expect(body).toBe(chunk("partial "));
    expect(outcome.text).toBe("partial ");
  });

  test("an event longer than the limit ends the stream as an error instead of filling memory", async () => {
    const huge = `data: ${"x".repeat(MAX_EVENT_CHARS)}`;
    const { outcome } = await relay([
      chunk("before "),
      huge.slice(0, MAX_EVENT_CHARS / 2),
      huge.slice(MAX_EVENT_CHARS / 2),
      "\n\n",
    ]);
    expect(outcome.end).toBe("error");
    expect(outcome.text).toBe("before ");
  });
});

test("a stream is billed before its last bytes go out: when its charge cannot be recorded, the client does not get a complete answer", async () => {
  const encoder = new TextEncoder();
  const parts = [chunk("hello "), usageChunk, "data: [DONE]\n\n"];
  // Each chunk arrives later, so the relay streams event by event rather than answering one finished body.
  const upstream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await Bun.sleep(5);
      const next = parts.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
  });
  const { body } = await relayToEnd(upstream, false, () => {
    throw new Error("the journal cannot be written");
  });
  expect(body).toContain("hello ");
  expect(body).not.toContain("[DONE]");
});

test("a stream that had all arrived in pieces before the reply opened is billed before its last bytes too: a charge that cannot be recorded leaves out [DONE]", async () => {
  const encoder = new TextEncoder();
  // Two chunks, both delivered before the relay reads: the first alone is not the whole stream.
  const parts = [chunk("hello "), `${usageChunk}data: [DONE]\n\n`];
  const upstream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
  const { body } = await relayToEnd(upstream, false, () => {
    throw new Error("the journal cannot be written");
  });
  expect(body).toContain("hello ");
  expect(body).not.toContain("[DONE]");
});
