import { describe, expect, test } from "bun:test";
import { chatToAnthropic } from "../../../src/gateway/relay/dialects/anthropic/from-chat";
import { chatStreamToAnthropic } from "../../../src/gateway/relay/dialects/anthropic/stream";
import { anthropicToChat } from "../../../src/gateway/relay/dialects/anthropic/to-chat";
import { DialectRefusal } from "../../../src/shared/relay-error";

const route = { url: new URL("http://gateway/v1/messages") };

describe("Anthropic request → pivot", () => {
  test("system blocks, thinking, sampling, stop sequences and tool_choice map to the pivot's fields", () => {
    const pivot = anthropicToChat(
      {
        model: "m",
        max_tokens: 64,
        system: [
          { type: "text", text: "One." },
          { type: "text", text: "Two.", cache_control: { type: "ephemeral" } },
        ],
        messages: [{ role: "user", content: "hi" }],
        temperature: 0.2,
        top_p: 0.9,
        top_k: 4,
        stop_sequences: ["X"],
        thinking: { type: "enabled", budget_tokens: 2048 },
        tools: [{ name: "t", input_schema: { type: "object" } }],
        tool_choice: { type: "auto", disable_parallel_tool_use: true },
        metadata: { user_id: "u" },
        stream: true,
      },
      route,
    );
    expect(pivot).toEqual({
      model: "m",
      max_tokens: 64,
      stream: true,
      messages: [
        { role: "system", content: "One.\nTwo." },
        { role: "user", content: "hi" },
      ],
      temperature: 0.2,
      top_p: 0.9,
      top_k: 4,
      stop: ["X"],
      thinking_budget: 2048,
      tools: [{ type: "function", function: { name: "t", parameters: { type: "object" } } }],
      tool_choice: "auto",
      parallel_tool_calls: false,
    });
  });

  test("tool_choice none and an assistant's thinking become the pivot's none and reasoning_content", () => {
    const pivot = anthropicToChat(
      {
        model: "m",
        max_tokens: 1,
        tool_choice: { type: "none" },
        messages: [
          { role: "user", content: "q" },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "hmm", signature: "s" },
              { type: "text", text: "a" },
            ],
          },
        ],
      },
      route,
    );
    expect(pivot.tool_choice).toBe("none");
    expect(pivot.messages[1]).toEqual({ role: "assistant", content: "a", reasoning_content: "hmm" });
  });

  test("what the pivot cannot carry is refused naming it: documents, server tools, a missing max_tokens", () => {
    const refused = (body: Record<string, unknown>) => () =>
      anthropicToChat({ model: "m", max_tokens: 1, ...body }, route);
    expect(refused({ messages: [{ role: "user", content: [{ type: "document", source: {} }] }] })).toThrow(
      /"document"/,
    );
    expect(refused({ messages: [], tools: [{ type: "web_search_20250305", name: "web_search" }] })).toThrow(
      DialectRefusal,
    );
    expect(() => anthropicToChat({ model: "m", messages: [] }, route)).toThrow(/max_tokens/);
    expect(anthropicToChat({ model: "m", messages: [] }, { ...route, countOnly: true }).max_tokens).toBeUndefined();
  });
});

describe("pivot reply → Anthropic", () => {
  test("reasoning, text and tool calls become thinking, text and tool_use blocks; usage leaves the cache out of input_tokens", () => {
    const reply = chatToAnthropic(
      {
        id: "chatcmpl-abc",
        choices: [
          {
            message: {
              content: "ok",
              reasoning_content: "think",
              tool_calls: [{ id: "c1", function: { name: "f", arguments: '{"a":1}' } }],
            },
            finish_reason: "length",
          },
        ],
        usage: {
          prompt_tokens: 30,
          completion_tokens: 7,
          prompt_tokens_details: { cached_tokens: 10, cached_creation_tokens: 5 },
        },
      },
      "claude-x",
    );
    expect(reply).toEqual({
      id: "msg_abc",
      type: "message",
      role: "assistant",
      model: "claude-x",
      content: [
        { type: "thinking", thinking: "think", signature: "" },
        { type: "text", text: "ok" },
        { type: "tool_use", id: "c1", name: "f", input: { a: 1 } },
      ],
      stop_reason: "max_tokens",
      stop_sequence: null,
      usage: { input_tokens: 15, output_tokens: 7, cache_read_input_tokens: 10, cache_creation_input_tokens: 5 },
    });
  });
});

const streamOf = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      // One byte per chunk: events split anywhere must still come out whole.
      for (const byte of new TextEncoder().encode(text)) controller.enqueue(new Uint8Array([byte]));
      controller.close();
    },
  });

async function events(pivot: string) {
  const text = await new Response(chatStreamToAnthropic(streamOf(pivot), "claude-x")).text();
  return text
    .trim()
    .split("\n\n")
    .map((e) => JSON.parse(e.split("\n")[1]!.slice(6)));
}

const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  `data: ${JSON.stringify({ id: "chatcmpl-1", choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;

describe("pivot stream → Anthropic events", () => {
  test("thinking, text and a tool call's argument deltas become their blocks, then message_delta with usage and message_stop", async () => {
    const out = await events(
      chunk({ role: "assistant", reasoning_content: "hm" }) +
        ": PING\n\n" +
        chunk({ content: "Hi" }) +
        chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "f", arguments: '{"a"' } }] }) +
        chunk({ tool_calls: [{ index: 0, function: { arguments: ":1}" } }] }) +
        chunk({}, "tool_calls") +
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 4 } })}\n\n` +
        "data: [DONE]\n\n",
    );
    expect(out.map((e) => e.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "ping",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(out[2].delta).toEqual({ type: "thinking_delta", thinking: "hm" });
    expect(out[6].delta).toEqual({ type: "text_delta", text: "Hi" });
    expect(out[8].content_block).toEqual({ type: "tool_use", id: "c1", name: "f", input: {} });
    expect(out[10].delta).toEqual({ type: "input_json_delta", partial_json: ":1}" });
    expect(out[12]).toMatchObject({ delta: { stop_reason: "tool_use" }, usage: { input_tokens: 9, output_tokens: 4 } });
  });

  test("a stream that ends without [DONE] ends with an error event, not message_stop", async () => {
    const out = await events(chunk({ content: "Hi" }));
    expect(out.at(-1)).toMatchObject({ type: "error", error: { type: "api_error" } });
    expect(out.some((e) => e.type === "message_stop")).toBe(false);
  });
});
