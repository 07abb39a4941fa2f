import { describe, expect, test } from "bun:test";
import { mapGenerateContent } from "../../../src/gateway/relay/providers/gemini/reply";
import { generateContentBody } from "../../../src/gateway/relay/providers/gemini/request";
import { streamMapper } from "../../../src/gateway/relay/providers/gemini/stream";
import { RelayError } from "../../../src/shared/relay-error";
import { accumulatedToolCalls, mapInPieces, sse } from "../support/mapped-stream";

const hi = [{ role: "user", content: "hi" }];
const weather = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather in a city",
    parameters: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      additionalProperties: false,
      properties: {
        city: { type: "string", description: "City" },
        unit: { type: ["string", "null"], enum: ["c", "f"] },
        days: { type: "array", items: { type: "integer", exclusiveMinimum: 0 } },
        mode: { const: "fast" },
      },
      required: ["city"],
    },
  },
};

const refusal = (body: object, stream = false) => {
  try {
    generateContentBody({ messages: hi, ...body }, stream);
  } catch (e) {
    expect(e).toBeInstanceOf(RelayError);
    expect((e as RelayError).status).toBe(400);
    return (e as RelayError).message;
  }
  throw new Error("not refused");
};

describe("OpenAI chat → Gemini generateContent request", () => {
  test("function declarations with the schema keywords Gemini refuses stripped; tool calls and merged results", () => {
    const body = generateContentBody({
      tools: [weather],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      messages: [
        { role: "user", content: "Paris and Rome?" },
        {
          role: "assistant",
          content: "Looking.",
          tool_calls: [
            { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "c2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: '{"sky":"sunny"}' },
        { role: "tool", tool_call_id: "c2", content: "rain" },
      ],
    });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "get_weather",
            description: "Weather in a city",
            parameters: {
              type: "OBJECT",
              properties: {
                city: { type: "STRING", description: "City" },
                unit: { type: "STRING", nullable: true, enum: ["c", "f"] },
                days: { type: "ARRAY", items: { type: "INTEGER" } },
                mode: { enum: ["fast"] },
              },
              required: ["city"],
            },
          },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } });
    expect(body.contents).toEqual([
      { role: "user", parts: [{ text: "Paris and Rome?" }] },
      {
        role: "model",
        parts: [
          { text: "Looking." },
          { functionCall: { name: "get_weather", args: { city: "Paris" } } },
          { functionCall: { name: "get_weather", args: { city: "Rome" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "get_weather", response: { sky: "sunny" } } },
          { functionResponse: { name: "get_weather", response: { output: "rain" } } },
        ],
      },
    ]);
  });

  test("tool_choice auto, none, required → AUTO, NONE, ANY", () => {
    const mode = (tool_choice: string) =>
      (generateContentBody({ tools: [weather], tool_choice, messages: hi }).toolConfig as any).functionCallingConfig
        .mode;
    expect([mode("auto"), mode("none"), mode("required")]).toEqual(["AUTO", "NONE", "ANY"]);
  });

  test("images: a data URL is inlineData, a link is fileData", () => {
    const body = generateContentBody({
      messages: [
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "https://example.com/a.webp?x=1" } },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          ],
        },
      ],
    });
    expect((body.contents as any)[0].parts).toEqual([
      { fileData: { mimeType: "image/webp", fileUri: "https://example.com/a.webp?x=1" } },
      { inlineData: { mimeType: "image/png", data: "AAAA" } },
    ]);
  });

  test("response_format: application/json, with the schema as responseJsonSchema for json_schema", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
    expect(generateContentBody({ messages: hi, response_format: { type: "json_object" } }).generationConfig).toEqual({
      responseMimeType: "application/json",
    });
    expect(
      generateContentBody({
        messages: hi,
        response_format: { type: "json_schema", json_schema: { name: "x", schema } },
      }).generationConfig,
    ).toEqual({ responseMimeType: "application/json", responseJsonSchema: schema });
  });

  test("thinking budgets, n as candidateCount, seed and penalties", () => {
    expect(generateContentBody({ messages: hi, thinking_budget: 512, n: 2, seed: 7 }).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 512, includeThoughts: true },
      candidateCount: 2,
      seed: 7,
    });
    expect(generateContentBody({ messages: hi, reasoning_effort: "medium" }).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 8192, includeThoughts: true },
    });
    expect(
      generateContentBody({ messages: hi, reasoning_effort: "none", presence_penalty: 0.5, frequency_penalty: 0.2 })
        .generationConfig,
    ).toEqual({
      thinkingConfig: { thinkingBudget: 0, includeThoughts: false },
      presencePenalty: 0.5,
      frequencyPenalty: 0.2,
    });
  });

  test("what the stream or Gemini cannot carry is refused naming the parameter", () => {
    expect(refusal({ n: 2 }, true)).toContain("n > 1 is not supported on Gemini channels when streaming");
    expect(refusal({ logprobs: true })).toContain("logprobs");
    expect(refusal({ audio: { voice: "alloy" } })).toContain("audio");
    expect(refusal({ tools: [{ type: "web_search" }] })).toContain("only function tools");
    expect(refusal({ tool_choice: "sometimes" })).toContain("tool_choice");
  });
});

describe("Gemini reply → OpenAI chat completion", () => {
  test("function calls become tool_calls with ids and finish tool_calls; thoughts and their tokens are reasoning", () => {
    const reply = mapGenerateContent(
      {
        responseId: "r1",
        modelVersion: "gemini-x",
        candidates: [
          {
            finishReason: "STOP",
            content: {
              role: "model",
              parts: [
                { text: "Pondering.", thought: true },
                { functionCall: { name: "get_weather", args: { city: "Paris" } } },
                { functionCall: { name: "get_weather", args: { city: "Rome" } } },
              ],
            },
          },
        ],
        usageMetadata: {
          promptTokenCount: 50,
          cachedContentTokenCount: 20,
          candidatesTokenCount: 8,
          thoughtsTokenCount: 5,
        },
      },
      "m",
    );
    const message = reply.choices[0]!.message as any;
    expect(reply.choices[0]!.finish_reason).toBe("tool_calls");
    expect(message.content).toBeNull();
    expect(message.reasoning_content).toBe("Pondering.");
    expect(message.tool_calls.map((c: any) => c.function)).toEqual([
      { name: "get_weather", arguments: '{"city":"Paris"}' },
      { name: "get_weather", arguments: '{"city":"Rome"}' },
    ]);
    expect(message.tool_calls[0].id).toStartWith("call_");
    expect(message.tool_calls[0].id).not.toBe(message.tool_calls[1].id);
    expect(reply.usage).toEqual({
      prompt_tokens: 50,
      completion_tokens: 13,
      total_tokens: 63,
      prompt_tokens_details: { cached_tokens: 20 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
  });

  test("a function call's thought signature rides in its tool-call id and goes back with the call on the next turn", () => {
    const signature = "CiQBcsjafz+/Ab1wT2w=";
    const reply = mapGenerateContent(
      {
        candidates: [
          {
            finishReason: "STOP",
            content: {
              role: "model",
              parts: [
                { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: signature },
                { functionCall: { name: "get_weather", args: { city: "Rome" } } },
              ],
            },
          },
        ],
      },
      "m",
    );
    const calls = (reply.choices[0]!.message as any).tool_calls;
    expect(calls[0].id).toMatch(/^call_[0-9a-f]{32}_ts_[A-Za-z0-9_-]+$/);
    expect(calls[1].id).toMatch(/^call_[0-9a-f]{32}$/);
    const body = generateContentBody(
      {
        messages: [
          ...hi,
          { role: "assistant", content: null, tool_calls: calls },
          { role: "tool", tool_call_id: calls[0].id, content: "20C" },
          { role: "tool", tool_call_id: calls[1].id, content: "25C" },
        ],
      },
      false,
    ) as any;
    expect(body.contents[1].parts).toEqual([
      { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: signature },
      { functionCall: { name: "get_weather", args: { city: "Rome" } } },
    ]);
  });

  test("finish reasons and several candidates", () => {
    const reply = mapGenerateContent(
      {
        candidates: [
          { finishReason: "STOP", content: { parts: [{ text: "a" }] } },
          { finishReason: "MAX_TOKENS", content: { parts: [{ text: "b" }] } },
          { finishReason: "SAFETY" },
        ],
      },
      "m",
    );
    expect(reply.choices.map((c) => [c.index, c.message.content, c.finish_reason])).toEqual([
      [0, "a", "stop"],
      [1, "b", "length"],
      [2, "", "content_filter"],
    ]);
  });
});

const stream = sse([
  { responseId: "g1", candidates: [{ content: { parts: [{ text: "Thinking", thought: true }] } }] },
  { candidates: [{ content: { parts: [{ text: "Sure." }] } }] },
  {
    candidates: [
      {
        content: {
          parts: [
            { functionCall: { name: "get_weather", args: { city: "Paris" } } },
            { functionCall: { name: "get_weather", args: { city: "Rome" } } },
          ],
        },
        finishReason: "STOP",
      },
    ],
    usageMetadata: {
      promptTokenCount: 40,
      cachedContentTokenCount: 10,
      candidatesTokenCount: 9,
      thoughtsTokenCount: 3,
    },
  },
]);

describe("Gemini stream → OpenAI chunks", () => {
  for (const size of [1, 5, 33, stream.length])
    test(`fed in pieces of ${size} bytes: whole function calls become one delta each with ids, finish tool_calls`, async () => {
      const { chunks, done } = await mapInPieces(streamMapper("m"), stream, size);
      expect(done).toBe(true);
      const deltas = chunks.flatMap((c) => c.choices.map((ch: any) => ch.delta));
      expect(deltas.map((d) => d.reasoning_content ?? "").join("")).toBe("Thinking");
      expect(deltas.map((d) => d.content ?? "").join("")).toBe("Sure.");
      const calls = accumulatedToolCalls(chunks);
      expect(calls.map((c) => [c.name, c.arguments])).toEqual([
        ["get_weather", '{"city":"Paris"}'],
        ["get_weather", '{"city":"Rome"}'],
      ]);
      expect(calls.every((c) => c.id?.startsWith("call_"))).toBe(true);
      expect(chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])).toHaveLength(2);
      expect(chunks.flatMap((c) => (c.choices[0]?.finish_reason ? [c.choices[0].finish_reason] : []))).toEqual([
        "tool_calls",
      ]);
      expect(chunks.at(-1).usage).toEqual({
        prompt_tokens: 40,
        completion_tokens: 12,
        total_tokens: 52,
        prompt_tokens_details: { cached_tokens: 10 },
        completion_tokens_details: { reasoning_tokens: 3 },
      });
    });
});
