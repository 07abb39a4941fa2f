import { describe, expect, test } from "bun:test";
import { FinishReason, type GenerateContentResponse } from "@google/genai";
import { chatToGemini } from "../../../src/gateway/relay/dialects/gemini/from-chat";
import { geminiToChat } from "../../../src/gateway/relay/dialects/gemini/to-chat";

const reply = (message: object, finish = "stop", usage?: object) => ({
  id: "chatcmpl-9",
  object: "chat.completion",
  model: "gpt-test-2026",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
  ...(usage && { usage }),
});

const toGemini = (body: object, includeThoughts = false): GenerateContentResponse =>
  chatToGemini(body, { includeThoughts, model: "gemini-2.5-flash" }) as GenerateContentResponse;

describe("pivot chat completion → Gemini GenerateContentResponse", () => {
  test("text, finish reason, usage with cached and thinking tokens, model version", () => {
    const out = toGemini(
      reply({ content: "Hello!" }, "stop", {
        prompt_tokens: 100,
        completion_tokens: 30,
        total_tokens: 130,
        prompt_tokens_details: { cached_tokens: 40, cached_creation_tokens: 10 },
        completion_tokens_details: { reasoning_tokens: 12 },
      }),
    );
    expect(out).toEqual({
      candidates: [
        { content: { role: "model", parts: [{ text: "Hello!" }] }, finishReason: FinishReason.STOP, index: 0 },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 18,
        thoughtsTokenCount: 12,
        cachedContentTokenCount: 40,
        totalTokenCount: 130,
      },
      modelVersion: "gpt-test-2026",
      responseId: "chatcmpl-9",
    } as unknown as GenerateContentResponse);
  });

  test("finish reasons: length → MAX_TOKENS, content_filter → SAFETY, tool_calls → STOP, others → OTHER", () => {
    const finish = (reason: string) => toGemini(reply({ content: "x" }, reason)).candidates?.[0]?.finishReason;
    expect(finish("length")).toBe(FinishReason.MAX_TOKENS);
    expect(finish("content_filter")).toBe(FinishReason.SAFETY);
    expect(finish("tool_calls")).toBe(FinishReason.STOP);
    expect(finish("something_new")).toBe(FinishReason.OTHER);
  });

  test("thinking appears as a thought part only when includeThoughts was asked", () => {
    const body = reply({ content: "42", reasoning_content: "6 times 7" });
    expect(toGemini(body, true).candidates?.[0]?.content?.parts).toEqual([
      { text: "6 times 7", thought: true },
      { text: "42" },
    ]);
    expect(toGemini(body, false).candidates?.[0]?.content?.parts).toEqual([{ text: "42" }]);
  });

  test("tool calls become functionCall parts (malformed arguments kept, not lost); array content is read", () => {
    const out = toGemini(
      reply(
        {
          content: [{ type: "text", text: "Let me look." }],
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "call_b", type: "function", function: { name: "now", arguments: "" } },
            { id: "call_c", type: "function", function: { name: "bad", arguments: "{oops" } },
          ],
        },
        "tool_calls",
      ),
    );
    expect(out.candidates?.[0]?.content?.parts).toEqual([
      { text: "Let me look." },
      { functionCall: { id: "call_a", name: "get_weather", args: { city: "Paris" } } },
      { functionCall: { id: "call_b", name: "now", args: {} } },
      { functionCall: { id: "call_c", name: "bad", args: { arguments: "{oops" } } },
    ]);
  });

  test("tools round trip: a functionCall sent back with its response maps onto the pivot call id", () => {
    const first = toGemini(
      reply(
        {
          content: null,
          tool_calls: [{ id: "call_q", type: "function", function: { name: "f", arguments: '{"n":1}' } }],
        },
        "tool_calls",
      ),
    );
    const modelTurn = first.candidates![0]!.content!;
    const call = modelTurn.parts![0]!.functionCall!;
    const { chat } = geminiToChat(
      {
        contents: [
          { role: "user", parts: [{ text: "go" }] },
          modelTurn,
          { role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response: { r: 2 } } }] },
        ],
      },
      { model: "m", stream: false },
    );
    expect(chat.messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_q", type: "function", function: { name: "f", arguments: '{"n":1}' } }],
      },
      { role: "tool", tool_call_id: "call_q", content: '{"r":2}' },
    ]);
  });

  test("a reply without usage or model keeps the path's model", () => {
    const out = toGemini({ choices: [{ message: { content: "" }, finish_reason: "length" }] });
    expect(out).toEqual({
      candidates: [{ content: { role: "model", parts: [] }, finishReason: FinishReason.MAX_TOKENS, index: 0 }],
      modelVersion: "gemini-2.5-flash",
    } as unknown as GenerateContentResponse);
  });
});
