import { describe, expect, test } from "bun:test";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { chatStreamToResponses } from "../../../src/gateway/relay/dialects/responses/stream";
import { responsesToChat } from "../../../src/gateway/relay/dialects/responses/to-chat";
import { byteStream, delta, parallelCallsReply, reasoningTextReply, sseText, usageChunk } from "./pivot-stream";

const request = {
  model: "gpt-x",
  input: "hi",
  stream: true,
  tools: [
    { type: "function", name: "github.search", parameters: { type: "object", properties: {} } },
    { type: "custom", name: "apply_patch" },
    { type: "web_search" },
  ],
};
const { toolNames } = responsesToChat(request);
const searchName = Object.keys(toolNames).find((name) => toolNames[name]!.name === "github.search")!;

/** The Responses events the translated stream carries, each checked to name its type on its `event:` line. */
async function translatedEvents(text: string, pieceSize?: number): Promise<ResponseStreamEvent[]> {
  const out = await new Response(chatStreamToResponses(byteStream(text, pieceSize), { request, toolNames })).text();
  expect(out.endsWith("\n\n")).toBe(true);
  return out
    .split("\n\n")
    .filter(Boolean)
    .map((block) => {
      const [eventLine, dataLine, ...rest] = block.split("\n");
      expect(rest).toEqual([]);
      const event = JSON.parse(dataLine!.slice("data: ".length)) as ResponseStreamEvent;
      expect(eventLine).toBe(`event: ${event.type}`);
      return event;
    });
}

const typesOf = (events: ResponseStreamEvent[]) => events.map((event) => event.type);
const last = (events: ResponseStreamEvent[]) => events.at(-1) as any;

describe("a chat chunk stream translated to the Responses event stream", () => {
  test("reasoning then text: the events in order, numbered from 0, and the completed response with usage", async () => {
    const events = await translatedEvents(sseText(reasoningTextReply));
    expect(typesOf(events)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
    const created = events[0] as any;
    expect(created.response).toMatchObject({ object: "response", status: "in_progress", output: [], usage: null });
    expect(events.filter((e) => e.type === "response.output_text.delta").map((e: any) => e.delta)).toEqual([
      "Hello",
      ", world",
    ]);
    expect(events.find((e) => e.type === "response.output_text.done")).toMatchObject({
      text: "Hello, world",
      output_index: 1,
    });
    const completed = last(events).response;
    expect(completed.id).toBe(created.response.id);
    expect(completed).toMatchObject({
      status: "completed",
      output_text: "Hello, world",
      output: [
        { type: "reasoning", summary: [{ type: "summary_text", text: "Let me think." }] },
        { type: "message", status: "completed", content: [{ type: "output_text", text: "Hello, world" }] },
      ],
      usage: {
        input_tokens: 20,
        input_tokens_details: { cached_tokens: 8 },
        output_tokens: 9,
        output_tokens_details: { reasoning_tokens: 4 },
        total_tokens: 29,
      },
    });
  });

  test("parallel tool calls with interleaved argument deltas keep their own items and the caller's names", async () => {
    const events = await translatedEvents(sseText(parallelCallsReply(searchName, "apply_patch")));
    const added = events.filter((e) => e.type === "response.output_item.added").map((e: any) => e.item);
    expect(added).toMatchObject([
      { type: "function_call", name: "github.search", call_id: "call_a", status: "in_progress" },
      { type: "custom_tool_call", name: "apply_patch", call_id: "call_b", status: "in_progress" },
    ]);
    const argumentDeltas = events.filter((e) => e.type === "response.function_call_arguments.delta") as any[];
    expect(argumentDeltas.map((e) => [e.output_index, e.delta])).toEqual([
      [0, '{"q":'],
      [0, '"x"}'],
    ]);
    expect(events.find((e) => e.type === "response.function_call_arguments.done")).toMatchObject({
      output_index: 0,
      arguments: '{"q":"x"}',
    });
    expect(events.find((e) => e.type === "response.custom_tool_call_input.done")).toMatchObject({
      output_index: 1,
      input: "*** Begin Patch",
    });
    expect(last(events).response).toMatchObject({
      status: "completed",
      output: [
        { type: "function_call", name: "github.search", arguments: '{"q":"x"}', status: "completed" },
        { type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch" },
      ],
      usage: { input_tokens: 11, output_tokens: 6, total_tokens: 17 },
    });
  });

  test("the same events whatever byte the stream is cut at", async () => {
    const text = sseText(reasoningTextReply);
    const strip = (events: ResponseStreamEvent[]) =>
      JSON.stringify(events)
        .replace(/"(resp|rs|msg|fc)_[0-9a-f]{32}"/g, '"id"')
        .replace(/"created_at":\d+/g, "");
    const whole = strip(await translatedEvents(text));
    for (const size of [1, 2, 3, 7, 64]) expect(strip(await translatedEvents(text, size))).toBe(whole);
  });

  test("a refusal streams as a refusal part of its own message", async () => {
    const events = await translatedEvents(
      sseText([delta({ refusal: "I can't " }), delta({ refusal: "help." }, "stop")]),
    );
    expect(typesOf(events).slice(2)).toEqual([
      "response.output_item.added",
      "response.content_part.added",
      "response.refusal.delta",
      "response.refusal.delta",
      "response.refusal.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.find((e) => e.type === "response.refusal.done")).toMatchObject({ refusal: "I can't help." });
    expect(last(events).response.output).toMatchObject([
      { type: "message", content: [{ type: "refusal", refusal: "I can't help." }] },
    ]);
  });

  test("a reply cut at the token limit ends with response.incomplete", async () => {
    const events = await translatedEvents(
      sseText([delta({ content: "Half" }, "length"), usageChunk({ prompt_tokens: 1, completion_tokens: 2 })]),
    );
    expect(last(events)).toMatchObject({
      type: "response.incomplete",
      response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
    });
  });

  test("a stream that stops before its end, or carries an upstream error, ends with error and response.failed", async () => {
    const cut = await translatedEvents(sseText([delta({ content: "Hel" })], false));
    expect(typesOf(cut).slice(-2)).toEqual(["error", "response.failed"]);
    expect(last(cut).response).toMatchObject({ status: "failed", error: { code: "server_error" } });
    const failed = await translatedEvents(
      sseText([delta({ content: "Hel" }), { error: { message: "overloaded", code: "529" } }]),
    );
    expect(typesOf(failed).slice(-2)).toEqual(["error", "response.failed"]);
    expect(failed.at(-2)).toMatchObject({ message: "overloaded", code: "529" });
    expect(typesOf(failed).filter((type) => type === "response.failed")).toHaveLength(1);
  });
});
