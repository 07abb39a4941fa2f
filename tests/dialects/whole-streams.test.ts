/**
 * A stream that arrived whole is translated at once instead of read event by event (the relay's fast path):
 * the client must get the very bytes the streamed translation gives, on both sides of the pivot.
 */
import { describe, expect, test } from "bun:test";
import { chatStreamToAnthropic, wholeChatStreamToAnthropic } from "../../src/gateway/relay/dialects/anthropic/stream";
import {
  type GeminiStreamOptions,
  geminiStream,
  streamFormOf,
  wholeGeminiStream,
} from "../../src/gateway/relay/dialects/gemini/stream";
import { streamMapper as anthropicMapper } from "../../src/gateway/relay/providers/anthropic/stream";
import {
  type EventMapper,
  mapEventStream,
  mapWholeEventObjects,
  mapWholeEventStream,
} from "../../src/gateway/relay/providers/event-stream";
import { streamMapper as geminiMapper } from "../../src/gateway/relay/providers/gemini/stream";
import { type PivotEvent, pivotText, wholePivotUsage } from "../../src/gateway/relay/pivot-events";
import { relayWholeStream } from "../../src/gateway/relay/whole-stream";
import { eventData, eventName } from "../../src/gateway/relay/sse";
import { byteStream, parallelCallsReply, reasoningTextReply, sseText } from "./responses/pivot-stream";

const encode = (text: string) => new TextEncoder().encode(text);

/** Pivot streams as they reach a dialect: complete, broken off, with keep-alive pings, with CRLF line ends. */
const PIVOT_STREAMS: Record<string, string> = {
  "text with reasoning and usage": sseText(reasoningTextReply),
  "parallel tool calls": sseText(parallelCallsReply("get_weather", "now")),
  "broken off (no [DONE])": sseText(reasoningTextReply.slice(0, 4), false),
  "keep-alive pings": `: ping\n\n${sseText(reasoningTextReply.slice(0, 3))}`,
  "CRLF line ends": sseText(parallelCallsReply("get_weather", "now")).replaceAll("\n", "\r\n"),
};

describe("a pivot stream that arrived whole, in the client's dialect", () => {
  for (const [name, pivot] of Object.entries(PIVOT_STREAMS)) {
    test(`Anthropic Messages events, ${name}: the bytes of the streamed translation`, async () => {
      const streamed = await new Response(chatStreamToAnthropic(byteStream(pivot, 7), "claude-x")).text();
      expect(wholeChatStreamToAnthropic({ bytes: encode(pivot) }, "claude-x")).toBe(streamed);
    });

    for (const form of ["sse", "json-array"] as const) {
      test(`Gemini ${form}, ${name}: the bytes of the streamed translation`, async () => {
        const options: GeminiStreamOptions = { form, includeThoughts: true, model: "gemini-x" };
        const streamed = await new Response(geminiStream(byteStream(pivot, 7), options)).text();
        expect(wholeGeminiStream({ bytes: encode(pivot) }, options)).toBe(streamed);
      });
    }
  }
});

const anthropicEvent = (type: string, fields: object) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;

/** Upstream streams of the translated families, as they arrive. */
const UPSTREAM_STREAMS = {
  "Anthropic text and tool use": {
    mapper: anthropicMapper,
    sse: [
      anthropicEvent("message_start", { message: { id: "msg_1", model: "claude-x", usage: { input_tokens: 9 } } }),
      anthropicEvent("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      anthropicEvent("ping", {}),
      anthropicEvent("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Hi" } }),
      anthropicEvent("content_block_stop", { index: 0 }),
      anthropicEvent("content_block_start", {
        index: 1,
        content_block: { type: "tool_use", id: "toolu_1", name: "now", input: {} },
      }),
      anthropicEvent("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: "{}" } }),
      anthropicEvent("content_block_stop", { index: 1 }),
      anthropicEvent("message_delta", { delta: { stop_reason: "tool_use" }, usage: { output_tokens: 4 } }),
      anthropicEvent("message_stop", {}),
    ].join(""),
  },
  "Anthropic broken off": {
    mapper: anthropicMapper,
    sse: anthropicEvent("message_start", { message: { id: "msg_2", model: "claude-x" } }),
  },
  "Gemini text": {
    mapper: geminiMapper,
    sse: [
      { responseId: "r1", candidates: [{ content: { parts: [{ text: "Hel" }] } }] },
      {
        responseId: "r1",
        candidates: [{ content: { parts: [{ text: "lo" }] }, finishReason: "STOP" }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
      },
    ]
      .map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`)
      .join(""),
  },
};

/** The chunks' creation second can tick between two translations. */
const sameSecond = (text: string) => text.replaceAll(/"created":\d+/g, '"created":0');

describe("an upstream stream that arrived whole, as the pivot", () => {
  for (const [name, { mapper, sse }] of Object.entries(UPSTREAM_STREAMS)) {
    test(`${name}: the bytes of the streamed mapping`, async () => {
      const streamed = await new Response(mapEventStream(byteStream(sse, 5), mapper("m"))).text();
      const whole = new TextDecoder().decode(mapWholeEventStream(encode(sse), mapper("m")));
      expect(sameSecond(whole)).toBe(sameSecond(streamed));
    });
  }
});

describe("a whole upstream stream handed to the dialect as the objects the provider wrote", () => {
  const objectsOf = (sse: string, mapper: (model: string) => EventMapper) => {
    const events = mapWholeEventObjects(encode(sse), mapper("m"));
    if (!events) throw new Error("the mapper wrote no objects");
    return events;
  };

  for (const [name, { mapper, sse }] of Object.entries(UPSTREAM_STREAMS)) {
    test(`${name}: written as text, the bytes of the whole mapping`, () => {
      const whole = new TextDecoder().decode(mapWholeEventStream(encode(sse), mapper("m")));
      expect(sameSecond(pivotText(objectsOf(sse, mapper)).toString())).toBe(sameSecond(whole));
    });

    test(`${name}: each dialect writes the bytes it writes from the pivot's text`, () => {
      const events = objectsOf(sse, mapper);
      const bytes = pivotText(events);
      expect(wholeChatStreamToAnthropic({ events }, "claude-x")).toBe(
        wholeChatStreamToAnthropic({ bytes }, "claude-x"),
      );
      for (const form of ["sse", "json-array"] as const) {
        const options: GeminiStreamOptions = { form, includeThoughts: true, model: "gemini-x" };
        expect(wholeGeminiStream({ events }, options)).toBe(wholeGeminiStream({ bytes }, options));
      }
    });
  }

  test("a mapper that writes text of its own gives no objects", () => {
    const own: EventMapper = { event: (data) => `data: ${data}\n\n`, end: () => "data: [DONE]\n\n" };
    expect(mapWholeEventObjects(encode('data: {"a":1}\n\n'), own)).toBeUndefined();
  });

  test("the usage billed from the objects is the one billed from their text, for the shapes relayed whole", () => {
    for (const [name, { mapper, sse }] of Object.entries(UPSTREAM_STREAMS)) {
      const events = objectsOf(sse, mapper);
      const fromText = relayWholeStream(pivotText(events), "chat", true)?.usage;
      expect({ name, usage: wholePivotUsage(events, "chat") }).toEqual({ name, usage: fromText });
    }
    const usage = { prompt_tokens: 3, completion_tokens: 2 };
    const chunk = { id: "c", choices: [{ index: 0, delta: { content: "x" } }] };
    const shapes: Record<string, PivotEvent[]> = {
      "usage then [DONE]": [chunk, { ...chunk, choices: [], usage }, "[DONE]"],
      "no [DONE]": [chunk, { ...chunk, choices: [], usage }],
      "[DONE] not last": [chunk, "[DONE]", { ...chunk, choices: [], usage }, "[DONE]"],
      "two usage reports": [{ ...chunk, usage }, { ...chunk, choices: [], usage }, "[DONE]"],
      "no usage": [chunk, "[DONE]"],
    };
    for (const [name, events] of Object.entries(shapes)) {
      const fromText = relayWholeStream(pivotText(events), "chat", true)?.usage;
      expect({ name, usage: wholePivotUsage(events, "chat") }).toEqual({ name, usage: fromText });
    }
    expect(wholePivotUsage(shapes["usage then [DONE]"]!, "chat")).toBeDefined();
  });
});

describe("the Gemini stream form a URL asks for", () => {
  const formOf = (query: string) => streamFormOf(new URL(`http://h/v1beta/models/m:streamGenerateContent${query}`));

  test("alt=sse alone, among other parameters, or percent-encoded: server-sent events", () => {
    for (const query of ["?alt=sse", "?key=k&alt=sse", "?%61lt=sse", "?alt=%73se"])
      expect(formOf(query)).toEqual({ form: "sse", contentType: "text/event-stream" });
  });

  test("no alt, or another one: Gemini's JSON array", () => {
    for (const query of ["", "?key=k", "?alt=json", "?alt=sse2", "?salt=sse"])
      expect(formOf(query)).toEqual({ form: "json-array", contentType: "application/json" });
  });
});

describe("eventName", () => {
  test("an event line then one data line: its name, with or without the space", () => {
    expect(eventName('event: message_stop\ndata: {"type":"message_stop"}')).toBe("message_stop");
    expect(eventName("event:ping\ndata: {}")).toBe("ping");
  });

  test("no event line, or one among several lines, read as before", () => {
    expect(eventName('data: {"text":"event: x"}')).toBeUndefined();
    expect(eventName("data: a")).toBeUndefined();
    expect(eventName("event: a\nevent: b\ndata: c")).toBe("b");
    expect(eventName("id: 1\nevent: done\ndata: c")).toBe("done");
  });
});

describe("eventData of a named event", () => {
  test("an event line then one data line: the data", () => {
    expect(eventData('event: message_stop\ndata: {"type":"message_stop"}')).toBe('{"type":"message_stop"}');
  });

  test("several data lines, or one without a space, are read line by line as before", () => {
    expect(eventData("event: x\ndata: a\ndata: b")).toBe("a\nb");
    expect(eventData("event: x\ndata:b")).toBe("b");
    expect(eventData("event: x\nid: 3\ndata: c")).toBe("c");
    expect(eventData("event: x")).toBeUndefined();
  });
});

describe("an upstream stream that arrived whole is split into the events the streamed splitter finds", () => {
  /** Writes each event's name and data as it gets them, so any difference in splitting shows. */
  const echo = (): EventMapper => ({
    named: true,
    event: (data, name) => `[${name}|${data}]`,
    end: () => "[end]",
  });
  const bytesOf = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));
  const EDGE_STREAMS: Record<string, Uint8Array> = {
    "named events": bytesOf('event: a\ndata: {"x":1}\n\nevent:b\ndata:{"y":"é"}\n\n'),
    "data lines joined, a comment, an unnamed event": bytesOf(": hi\n\ndata: 1\ndata: 2\n\ndata: 3\n\n"),
    "the name after the data, extra blank lines": bytesOf("data: 4\nevent: late\n\n\n\nevent: e\ndata: 5\n\n"),
    "no final blank line, a blank data event": bytesOf("event: c\ndata: 6\n\ndata: \n\nevent: d\ndata: 7\n  "),
    "a whitespace tail": bytesOf("data: 8\n\n \n\t"),
    "CRLF line ends": bytesOf("event: f\r\ndata: 9\r\n\r\ndata: 10\r\n\r\n"),
    "a broken UTF-8 sequence at the end": bytesOf("data: 11\n\ndata: 12", [0xe2, 0x82]),
    "a broken UTF-8 sequence inside": bytesOf("data: 13", [0xe2], "x\n\n"),
    "only a tail": bytesOf("data: 14"),
    empty: bytesOf(""),
  };

  for (const [name, bytes] of Object.entries(EDGE_STREAMS)) {
    test(`${name}: the streamed mapping's text`, async () => {
      const upstream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
      const streamed = await new Response(mapEventStream(upstream, echo())).text();
      expect(new TextDecoder().decode(mapWholeEventStream(bytes, echo()))).toBe(streamed);
    });
  }
});
