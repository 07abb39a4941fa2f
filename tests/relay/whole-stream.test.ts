import { describe, expect, test } from "bun:test";
import type { StreamOutcome } from "../../src/gateway/relay/stream";
import { endsStream, relayWholeStream } from "../../src/gateway/relay/whole-stream";
import { relayToEnd } from "../support/relay-stream";

const encoder = new TextEncoder();
const event = (payload: object) => `data: ${JSON.stringify(payload)}\n\n`;
const chunk = (content: string) =>
  event({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }], usage: null });
const usageOnly = event({
  object: "chat.completion.chunk",
  choices: [],
  usage: { prompt_tokens: 3, completion_tokens: 4 },
});
const DONE = "data: [DONE]\n\n";
const PLAIN = chunk("héllo ") + chunk("world") + usageOnly + DONE;
const USAGE = { promptTokens: 3, completionTokens: 4, cachedTokens: 0, cacheWriteTokens: 0 };

/** The relay of `parts` (each delivered as its own chunk) read to the end: the body, the outcome, how it ended. */
async function relay(parts: string[], clientWantsUsage: boolean): Promise<{ body: string; outcome: StreamOutcome }> {
  const queue = parts.map((part) => encoder.encode(part));
  const upstream = new ReadableStream<Uint8Array>({
    start(controller) {
      // Everything is delivered before the relay reads, as an upstream that sent its stream at once.
      for (const part of queue) controller.enqueue(part);
      controller.close();
    },
  });
  return relayToEnd(upstream, clientWantsUsage);
}

/** The same stream split in the middle of an event, so the event-by-event relay handles it. */
const eventByEvent = (text: string, clientWantsUsage: boolean) =>
  relay([text.slice(0, 40), text.slice(40)], clientWantsUsage);

describe("a stream that arrived whole in one chunk", () => {
  test("is relayed as its events, less the usage-only chunk the client did not ask for, with the upstream's usage", () => {
    const read = (text: string, clientWantsUsage: boolean) => {
      const whole = relayWholeStream(encoder.encode(text), "chat", clientWantsUsage)!;
      return { body: Buffer.from(whole.body).toString(), usage: whole.usage };
    };
    const ascii = PLAIN.replace("é", "e");
    const spacedUsage = PLAIN.replace('"usage":{', '"usage" :\t{');
    for (const text of [PLAIN, ascii, spacedUsage]) {
      const usageEvent = text.slice(
        text.lastIndexOf("data: ", text.length - DONE.length - 1),
        text.length - DONE.length,
      );
      expect(read(text, false)).toEqual({ body: text.replace(usageEvent, ""), usage: USAGE });
      expect(read(text, true)).toEqual({ body: text, usage: USAGE });
    }
  });

  test("gives the client and the bill exactly what the event-by-event relay gives", async () => {
    const withUsageInContent =
      chunk("a") +
      event({
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: {} }],
        usage: { prompt_tokens: 5, completion_tokens: 1 },
      }) +
      DONE;
    for (const text of [PLAIN, withUsageInContent, usageOnly + chunk("x") + DONE]) {
      for (const wantsUsage of [false, true]) {
        const whole = await relay([text], wantsUsage);
        const split = await eventByEvent(text, wantsUsage);
        expect(whole.body).toBe(split.body);
        expect(whole.outcome.usage).toEqual(split.outcome.usage!);
        expect(whole.outcome.end).toBe("done");
        expect(split.outcome.end).toBe("done");
        expect(whole.outcome.firstResponseMs).toBeGreaterThanOrEqual(0);
      }
    }
  });

  test("of any other shape is left to the event-by-event relay", async () => {
    const others = {
      "a comment": `: keep-alive\n\n${PLAIN}`,
      "a multi-line event": `data: {"a":\ndata: 1}\n\n${PLAIN}`,
      "CRLF line ends": PLAIN.replaceAll("\n", "\r\n"),
      "no usage": chunk("a") + DONE,
      "two usage reports": chunk("a") + usageOnly + usageOnly + DONE,
      "[DONE] before the end": chunk("a") + DONE + usageOnly + DONE,
      "an unreadable usage event": `${chunk("a")}data: {"usage": {broken\n\n${DONE}`,
    };
    for (const [shape, text] of Object.entries(others)) {
      expect({ shape, whole: relayWholeStream(encoder.encode(text), "chat", false) }).toEqual({
        shape,
        whole: undefined,
      });
      const relayed = await relay([text], false);
      const split = await eventByEvent(text, false);
      expect({ shape, body: relayed.body, usage: relayed.outcome.usage }).toEqual({
        shape,
        body: split.body,
        usage: split.outcome.usage,
      });
    }
  });

  test("only a chunk ending with [DONE] is looked at", () => {
    expect(endsStream(encoder.encode(PLAIN))).toBe(true);
    expect(endsStream(encoder.encode(chunk("a")))).toBe(false);
    expect(endsStream(encoder.encode("[DONE]\n\n"))).toBe(false);
  });
});
