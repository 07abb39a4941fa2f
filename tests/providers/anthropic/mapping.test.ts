import { describe, expect, test } from "bun:test";
import { mapMessage } from "../../../src/gateway/relay/providers/anthropic/reply";
import { messagesBody } from "../../../src/gateway/relay/providers/anthropic/request";
import { streamMapper } from "../../../src/gateway/relay/providers/anthropic/stream";
import { RelayError } from "../../../src/shared/relay-error";
import { accumulatedToolCalls, mapInPieces, sse } from "../support/mapped-stream";

const weather = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

const refusal = (body: object) => {
  try {
    messagesBody({ messages: [{ role: "user", content: "hi" }], ...body }, "claude", false);
  } catch (e) {
    expect(e).toBeInstanceOf(RelayError);
    expect((e as RelayError).status).toBe(400);
    return (e as RelayError).message;
  }
  throw new Error("not refused");
};

describe("OpenAI chat → Anthropic Messages request", () => {
  test("tools, tool_choice, parallel tool calls and their results (consecutive ones in one user turn)", () => {
    const body = messagesBody(
      {
        tools: [weather],
        tool_choice: "required",
        parallel_tool_calls: false,
        messages: [
          { role: "user", content: "weather in Paris and Rome?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
              { id: "toolu_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
            ],
          },
          { role: "tool", tool_call_id: "toolu_1", content: "sunny" },
          { role: "tool", tool_call_id: "toolu_2", content: [{ type: "text", text: "rain" }] },
        ],
      },
      "claude",
      false,
    );
    expect(body.tools).toEqual([
      {
        name: "get_weather",
        description: "Weather in a city",
        input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    ]);
    expect(body.tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
    expect(body.messages).toEqual([
      { role: "user", content: "weather in Paris and Rome?" },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Rome" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "sunny" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "rain" },
        ],
      },
    ]);
  });

  test("tool_choice none, auto and a named function", () => {
    const choice = (tool_choice: unknown) =>
      messagesBody({ tools: [weather], tool_choice, messages: [{ role: "user", content: "x" }] }, "c", false)
        .tool_choice;
    expect(choice("none")).toEqual({ type: "none" });
    expect(choice("auto")).toEqual({ type: "auto" });
    expect(choice({ type: "function", function: { name: "get_weather" } })).toEqual({
      type: "tool",
      name: "get_weather",
    });
  });

  test("an http(s) image is a url source; a data URL a base64 source", () => {
    const body = messagesBody(
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
              { type: "image_url", image_url: { url: "data:image/jpeg;base64,AAAA" } },
            ],
          },
        ],
      },
      "c",
      false,
    );
    expect((body.messages as any)[0].content).toEqual([
      { type: "image", source: { type: "url", url: "https://example.com/cat.png" } },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "AAAA" } },
    ]);
  });

  test("response_format becomes an instruction at the end of the system prompt, schema included", () => {
    const schema = { type: "object", properties: { answer: { type: "string" } } };
    const body = messagesBody(
      {
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "hi" },
        ],
        response_format: { type: "json_schema", json_schema: { name: "reply", schema } },
      },
      "c",
      false,
    );
    expect(String(body.system).startsWith("Be brief.\n\nRespond with one valid JSON value")).toBe(true);
    expect(String(body.system)).toContain(JSON.stringify(schema));
    const plain = messagesBody(
      { messages: [{ role: "user", content: "hi" }], response_format: { type: "json_object" } },
      "c",
      false,
    );
    expect(plain.system).toBe(
      "Respond with one valid JSON object and nothing else: no prose, no Markdown code fences.",
    );
  });

  test("thinking_budget and reasoning_effort become thinking with a budget; max_tokens leaves room for the answer", () => {
    const hi = [{ role: "user", content: "hi" }];
    const budget = messagesBody({ messages: hi, thinking_budget: 2000 }, "c", false);
    expect(budget.thinking).toEqual({ type: "enabled", budget_tokens: 2000 });
    expect(budget.max_tokens).toBe(4096 + 2000);
    const effort = messagesBody({ messages: hi, reasoning_effort: "high", max_completion_tokens: 30000 }, "c", false);
    expect(effort.thinking).toEqual({ type: "enabled", budget_tokens: 24576 });
    expect(effort.max_tokens).toBe(30000);
    expect(messagesBody({ messages: hi, reasoning_effort: "low" }, "c", false).thinking).toEqual({
      type: "enabled",
      budget_tokens: 1024,
    });
    expect(messagesBody({ messages: hi, reasoning_effort: "none" }, "c", false).thinking).toBeUndefined();
  });

  test("inside a tool-use cycle (the last assistant turn called tools) thinking is left off: its signed block cannot come back", () => {
    const call = { id: "toolu_1", type: "function", function: { name: "f", arguments: "{}" } };
    const cycle = [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "toolu_1", content: "done" },
    ];
    expect(messagesBody({ messages: cycle, thinking_budget: 2000 }, "c", false).thinking).toBeUndefined();
    const after = [...cycle, { role: "assistant", content: "All done." }, { role: "user", content: "next" }];
    expect(messagesBody({ messages: after, thinking_budget: 2000 }, "c", false).thinking).toEqual({
      type: "enabled",
      budget_tokens: 2000,
    });
  });

  test("what Claude cannot carry is refused naming the parameter", () => {
    expect(refusal({ n: 2 })).toContain("n > 1 is not supported on Anthropic channels");
    expect(refusal({ logprobs: true })).toContain("logprobs");
    expect(refusal({ top_logprobs: 2 })).toContain("top_logprobs");
    expect(refusal({ modalities: ["text", "audio"], audio: { voice: "x" } })).toContain("audio");
    expect(refusal({ functions: [{ name: "f" }] })).toContain("functions");
    expect(refusal({ reasoning_effort: "extreme" })).toContain("reasoning_effort");
    expect(refusal({ thinking_budget: 2048, max_tokens: 1000 })).toContain("must exceed the thinking budget (2048)");
    expect(refusal({ response_format: { type: "json_schema", json_schema: { name: "x" } } })).toContain(
      "response_format.json_schema.schema",
    );
    expect(
      refusal({
        messages: [
          { role: "user", content: "x" },
          { role: "tool", tool_call_id: "nope", content: "y" },
        ],
      }),
    ).toContain("tool_call_id");
    expect(
      refusal({
        messages: [
          {
            role: "assistant",
            tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{oops" } }],
          },
        ],
      }),
    ).toContain("arguments of f is not valid JSON");
  });
});

describe("Anthropic Messages reply → OpenAI chat completion", () => {
  test("tool_use blocks become tool_calls, thinking reasoning_content, tool_use the finish reason, cache usage counted", () => {
    const reply = mapMessage(
      {
        id: "msg_1",
        model: "claude-x",
        stop_reason: "tool_use",
        content: [
          { type: "thinking", thinking: "Need weather.", signature: "sig" },
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Rome" } },
        ],
        usage: { input_tokens: 10, cache_read_input_tokens: 30, cache_creation_input_tokens: 5, output_tokens: 7 },
      },
      "m",
    );
    expect(reply.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        reasoning_content: "Need weather.",
        tool_calls: [
          { id: "toolu_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "toolu_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
        ],
      },
    });
    expect(reply.usage).toEqual({
      prompt_tokens: 45,
      completion_tokens: 7,
      total_tokens: 52,
      prompt_tokens_details: { cached_tokens: 30, cached_creation_tokens: 5 },
    });
  });

  test("stop reasons", () => {
    const finish = (stop_reason: string) => mapMessage({ stop_reason, content: [] }, "m").choices[0]!.finish_reason;
    expect(finish("end_turn")).toBe("stop");
    expect(finish("stop_sequence")).toBe("stop");
    expect(finish("max_tokens")).toBe("length");
    expect(finish("tool_use")).toBe("tool_calls");
    expect(finish("refusal")).toBe("content_filter");
  });
});

const toolStream = sse(
  [
    {
      type: "message_start",
      message: {
        id: "msg_s",
        model: "claude-x",
        usage: { input_tokens: 12, cache_read_input_tokens: 100, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me look" } },
    { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "abc" } },
    { type: "content_block_stop", index: 0 },
    { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Checking." } },
    { type: "content_block_stop", index: 1 },
    {
      type: "content_block_start",
      index: 2,
      content_block: { type: "tool_use", id: "toolu_a", name: "get_weather", input: {} },
    },
    { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: "" } },
    { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"ci' } },
    { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: 'ty": "Par' } },
    { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: 'is"}' } },
    { type: "content_block_stop", index: 2 },
    {
      type: "content_block_start",
      index: 3,
      content_block: { type: "tool_use", id: "toolu_b", name: "get_weather", input: {} },
    },
    { type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: '{"city":"Ro' } },
    { type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: 'me"}' } },
    { type: "content_block_stop", index: 3 },
    { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 42 } },
    { type: "message_stop" },
  ],
  true,
);

describe("Anthropic Messages stream → OpenAI chunks", () => {
  for (const size of [1, 3, 7, 64, toolStream.length])
    test(`fed in pieces of ${size} bytes: thinking, text, two tool calls from argument deltas, finish, usage`, async () => {
      const { chunks, done } = await mapInPieces(streamMapper("m"), toolStream, size);
      expect(done).toBe(true);
      expect(chunks[0].choices[0].delta.role).toBe("assistant");
      const deltas = chunks.flatMap((c) => c.choices.map((ch: any) => ch.delta));
      expect(deltas.map((d) => d.reasoning_content ?? "").join("")).toBe("Let me look");
      expect(deltas.map((d) => d.content ?? "").join("")).toBe("Checking.");
      expect(accumulatedToolCalls(chunks)).toEqual([
        { id: "toolu_a", name: "get_weather", arguments: '{"city": "Paris"}' },
        { id: "toolu_b", name: "get_weather", arguments: '{"city":"Rome"}' },
      ]);
      const starts = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []).filter((t: any) => t.id);
      expect(starts.map((t: any) => [t.index, t.type])).toEqual([
        [0, "function"],
        [1, "function"],
      ]);
      expect(chunks.flatMap((c) => (c.choices[0]?.finish_reason ? [c.choices[0].finish_reason] : []))).toEqual([
        "tool_calls",
      ]);
      expect(chunks.at(-1).choices).toEqual([]);
      expect(chunks.at(-1).usage).toEqual({
        prompt_tokens: 112,
        completion_tokens: 42,
        total_tokens: 154,
        prompt_tokens_details: { cached_tokens: 100 },
      });
    });
});
