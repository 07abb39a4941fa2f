/**
 * The dialects' stream writers write their events' JSON from the fields, not from objects: each event must be the
 * very text JSON.stringify gives for the event's object (same keys, same order, same escapes), whatever the text.
 */
import { describe, expect, test } from "bun:test";
import { wholeChatStreamToAnthropic } from "../../src/gateway/relay/dialects/anthropic/stream";
import { wholeGeminiStream } from "../../src/gateway/relay/dialects/gemini/stream";
import { delta, sseText, usageChunk } from "./responses/pivot-stream";

const TRICKY = 'say "hi"\\\n</script>\u2028 é 🌍\u0000';
const pivot = (events: unknown[]) => ({ bytes: new TextEncoder().encode(sseText(events)) });

describe("Anthropic Messages events written from their fields", () => {
  test("text, thinking and tool argument deltas, message_start, block stops: JSON.stringify's text", () => {
    const stream = pivot([
      delta({ role: "assistant", content: "" }),
      delta({ reasoning_content: TRICKY }),
      delta({ content: TRICKY }),
      delta({ tool_calls: [{ index: 0, id: "call_1", function: { name: "f", arguments: TRICKY } }] }),
      delta({}, "tool_calls"),
      usageChunk({ prompt_tokens: 1, completion_tokens: 2 }),
    ]);
    const data = wholeChatStreamToAnthropic(stream, 'claude "x"')
      .split("\n\n")
      .filter(Boolean)
      .map((event) => event.slice(event.indexOf("\ndata: ") + 7));
    expect(data.slice(0, 8)).toEqual([
      JSON.stringify({
        type: "message_start",
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: 'claude "x"',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      }),
      JSON.stringify({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } }),
      JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: TRICKY } }),
      JSON.stringify({ type: "content_block_stop", index: 0 }),
      JSON.stringify({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }),
      JSON.stringify({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: TRICKY } }),
      JSON.stringify({ type: "content_block_stop", index: 1 }),
      JSON.stringify({
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "call_1", name: "f", input: {} },
      }),
    ]);
    expect(data[8]).toBe(
      JSON.stringify({
        type: "content_block_delta",
        index: 2,
        delta: { type: "input_json_delta", partial_json: TRICKY },
      }),
    );
  });
});

describe("Gemini responses written from their fields", () => {
  test("text and thought parts of several candidates, any JSON value as text, index or model: JSON.stringify's text", () => {
    const stream = pivot([
      {
        id: "chatcmpl-1",
        model: { odd: true },
        choices: [
          { index: 1, delta: { reasoning_content: TRICKY, content: 5 } },
          { index: "0", delta: { content: TRICKY } },
        ],
      },
    ]);
    const text = wholeGeminiStream(stream, { form: "sse", includeThoughts: true, model: "gemini-x" });
    const first = JSON.stringify({
      candidates: [
        { content: { role: "model", parts: [{ text: TRICKY, thought: true }, { text: 5 }] }, index: 1 },
        { content: { role: "model", parts: [{ text: TRICKY }] }, index: "0" },
      ],
      modelVersion: { odd: true },
      responseId: "chatcmpl-1",
    });
    expect(text.split("\r\n\r\n")[0]).toBe(`data: ${first}`);
  });

  test("one candidate's text alone, the usual response, as its model and id change: JSON.stringify's text", () => {
    const chunks = [
      { id: "chatcmpl-1", model: "m-1", choices: [{ delta: { role: "assistant", content: "Hello" } }] },
      { id: "chatcmpl-1", model: "m-1", choices: [{ index: 0, delta: { content: TRICKY } }] },
      { id: "chatcmpl-1", model: "m-2", choices: [{ index: 0, delta: { content: " and", reasoning_content: "hm" } }] },
      { id: "chatcmpl-2", model: "m-2", choices: [{ index: 0, delta: { content: "bye", tool_calls: [] } }] },
    ];
    const response = (text: string, model: string, id: string) =>
      JSON.stringify({
        candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }],
        modelVersion: model,
        responseId: id,
      });
    const expected = [
      response("Hello", "m-1", "chatcmpl-1"),
      response(TRICKY, "m-1", "chatcmpl-1"),
      response(" and", "m-2", "chatcmpl-1"),
      response("bye", "m-2", "chatcmpl-2"),
    ];
    const sse = wholeGeminiStream(pivot(chunks), { form: "sse", includeThoughts: false, model: "gemini-x" });
    expect(sse.split("\r\n\r\n").filter(Boolean)).toEqual(expected.map((json) => `data: ${json}`));
    const array = wholeGeminiStream(pivot(chunks), { form: "json-array", includeThoughts: false, model: "gemini-x" });
    expect(JSON.parse(array)).toEqual(expected.map((json) => JSON.parse(json)));
    expect(array).toBe(`[${expected.join(",\r\n")}]`);
    // With thoughts asked for, the chunk with reasoning is written part by part: the thought first.
    const thoughts = wholeGeminiStream(pivot(chunks), { form: "sse", includeThoughts: true, model: "gemini-x" });
    const withThought = JSON.stringify({
      candidates: [{ content: { role: "model", parts: [{ text: "hm", thought: true }, { text: " and" }] }, index: 0 }],
      modelVersion: "m-2",
      responseId: "chatcmpl-1",
    });
    expect(thoughts.split("\r\n\r\n")[2]).toBe(`data: ${withThought}`);
  });
});
