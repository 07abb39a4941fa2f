import { describe, expect, test } from "bun:test";
import type { GenerateContentResponse } from "@google/genai";
import {
  type GeminiStreamOptions,
  GeminiStreamTranslator,
  geminiStream,
} from "../../../src/gateway/relay/dialects/gemini/stream";
import { chunk, pivotSse, usageChunk } from "./support";

const USAGE = {
  prompt_tokens: 10,
  completion_tokens: 8,
  total_tokens: 18,
  prompt_tokens_details: { cached_tokens: 4 },
  completion_tokens_details: { reasoning_tokens: 3 },
};

const TEXT_STREAM = pivotSse([
  chunk({ role: "assistant", content: "" }),
  chunk({ reasoning_content: "hmm" }),
  chunk({ content: "Grüße " }),
  chunk({ content: "🌍!" }),
  chunk({}, "stop"),
  usageChunk(USAGE),
]);

const TOOL_STREAM = pivotSse([
  chunk({
    role: "assistant",
    content: null,
    tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
  chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "now", arguments: "{}" } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
  chunk({}, "tool_calls"),
  usageChunk({ prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 }),
]);

/** Feeds the bytes in pieces of `size` (cutting through multi-byte characters) and returns every output piece. */
function feed(text: string, options: GeminiStreamOptions, size: number): string[] {
  const bytes = new TextEncoder().encode(text);
  const translator = new GeminiStreamTranslator(options);
  const out: string[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(translator.push(bytes.slice(at, at + size)));
  out.push(translator.end());
  return out;
}

const sseResponses = (text: string): GenerateContentResponse[] =>
  text
    .split("\r\n\r\n")
    .filter(Boolean)
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return JSON.parse(event.slice(6));
    });

const sse = (text: string, includeThoughts = true) =>
  sseResponses(feed(text, { form: "sse", includeThoughts, model: "gemini-x" }, 1 << 16).join(""));

const partsOf = (responses: GenerateContentResponse[]) =>
  responses.flatMap((r) => r.candidates?.[0]?.content?.parts ?? []);

describe("pivot chunk stream → Gemini stream", () => {
  test("SSE: a response per delta, thought parts, finishReason and usageMetadata on the last", () => {
    const responses = sse(TEXT_STREAM);
    expect(partsOf(responses)).toEqual([{ text: "hmm", thought: true }, { text: "Grüße " }, { text: "🌍!" }]);
    const last = responses.at(-1)!;
    expect(last.candidates?.[0]?.finishReason).toBe("STOP" as never);
    expect(last.usageMetadata).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 3,
      cachedContentTokenCount: 4,
      totalTokenCount: 18,
    });
    expect(responses.filter((r) => r.usageMetadata)).toHaveLength(1);
    expect(responses.every((r) => r.modelVersion === "gpt-test" && r.responseId === "chatcmpl-1")).toBe(true);
  });

  test("thinking deltas are left out unless includeThoughts was asked", () => {
    expect(partsOf(sse(TEXT_STREAM, false))).toEqual([{ text: "Grüße " }, { text: "🌍!" }]);
  });

  test("streamed argument deltas are assembled into whole functionCall parts, sent with the finish", () => {
    const responses = sse(TOOL_STREAM);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.candidates?.[0]).toEqual({
      content: {
        role: "model",
        parts: [
          { functionCall: { id: "call_a", name: "get_weather", args: { city: "Paris" } } },
          { functionCall: { id: "call_b", name: "now", args: {} } },
        ],
      },
      finishReason: "STOP",
      index: 0,
    } as never);
    expect(responses[0]!.usageMetadata?.totalTokenCount).toBe(12);
  });

  test("JSON-array form: a valid JSON array written incrementally, the same responses as SSE", () => {
    const pieces = feed(TEXT_STREAM, { form: "json-array", includeThoughts: true, model: "gemini-x" }, 1 << 16);
    const text = pieces.join("");
    expect(text.startsWith("[{")).toBe(true);
    expect(text.endsWith("}]")).toBe(true);
    expect(JSON.parse(text)).toEqual(sse(TEXT_STREAM));
    // Incremental: the first responses are out before the stream ends.
    expect(pieces.slice(0, -1).join("").length).toBeGreaterThan(0);
  });

  test("an empty stream is an empty array", () => {
    expect(feed("data: [DONE]\n\n", { form: "json-array", includeThoughts: false, model: "m" }, 4).join("")).toBe("[]");
  });

  test("every split of the stream, down to one byte (cutting multi-byte characters), gives the same output", () => {
    for (const form of ["sse", "json-array"] as const) {
      for (const stream of [TEXT_STREAM, TOOL_STREAM]) {
        const whole = feed(stream, { form, includeThoughts: true, model: "m" }, 1 << 16).join("");
        for (const size of [1, 2, 3, 5, 7, 13, 64]) {
          expect(feed(stream, { form, includeThoughts: true, model: "m" }, size).join("")).toBe(whole);
        }
      }
    }
  });

  test("a stream that ends without [DONE] or usage still finishes; an error event becomes Google's error", () => {
    const cut = `data: ${JSON.stringify(chunk({ content: "hi" }))}\n\ndata: ${JSON.stringify(chunk({}, "length"))}`;
    const responses = sseResponses(feed(cut, { form: "sse", includeThoughts: false, model: "m" }, 10).join(""));
    expect(responses.map((r) => r.candidates?.[0]?.finishReason ?? null)).toEqual([null, "MAX_TOKENS" as never]);
    const failed = `data: ${JSON.stringify({ error: { message: "upstream broke", type: "upstream_error" } })}\n\n`;
    expect(JSON.parse(feed(failed, { form: "json-array", includeThoughts: false, model: "m" }, 8).join(""))).toEqual([
      { error: { code: 500, message: "upstream broke", status: "INTERNAL" } },
    ]);
  });

  test("geminiStream pipes a byte stream through the translation", async () => {
    const bytes = new TextEncoder().encode(TEXT_STREAM);
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 3) controller.enqueue(bytes.slice(at, at + 3));
        controller.close();
      },
    });
    const text = await new Response(geminiStream(source, { form: "sse", includeThoughts: true, model: "m" })).text();
    expect(sseResponses(text)).toEqual(sse(TEXT_STREAM));
  });
});
