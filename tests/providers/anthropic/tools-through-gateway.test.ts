import { expect } from "bun:test";
import { sse } from "../support/mapped-stream";
import { describeToolsThroughGateway } from "../support/tools-through-gateway";

const usage = { input_tokens: 12, cache_read_input_tokens: 100, cache_creation_input_tokens: 8, output_tokens: 42 };
const message = (content: object[], stop_reason: string) => ({
  id: "msg_t",
  type: "message",
  role: "assistant",
  model: "claude-x",
  content,
  stop_reason,
  usage,
});
const toolUse = (id: string, city: string) => ({ type: "tool_use", id, name: "get_weather", input: { city } });

/** The streamed form, the arguments split mid-token as Claude does. */
const toolStream = sse(
  [
    {
      type: "message_start",
      message: { ...message([], ""), stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    },
    ...[
      ["toolu_1", '{"ci', 'ty":"Par', 'is"}'],
      ["toolu_2", '{"city"', ':"Rome"}'],
    ].flatMap(([id, ...pieces], index) => [
      { type: "content_block_start", index, content_block: { type: "tool_use", id, name: "get_weather", input: {} } },
      ...pieces.map((partial_json) => ({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json },
      })),
      { type: "content_block_stop", index },
    ]),
    { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 42 } },
    { type: "message_stop" },
  ],
  true,
);

describeToolsThroughGateway({
  name: "Anthropic",
  type: 14,
  usage: { prompt: 120, completion: 42, cached: 100, written: 8, reasoning: 0 },
  toolCalls: (stream) =>
    stream ? toolStream : message([toolUse("toolu_1", "Paris"), toolUse("toolu_2", "Rome")], "tool_use"),
  text: (text) => message([{ type: "text", text }], "end_turn"),
  toolNames: (body) => body.tools.map((t: any) => t.name),
  toolAnswers: (body) => body.messages.at(-1),
  expectedAnswers: {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_1", content: "sunny" },
      { type: "tool_result", tool_use_id: "toolu_2", content: "rain" },
    ],
  },
  expectJsonMode(body, schema) {
    expect(body.system).toContain("Respond with one valid JSON value");
    expect(body.system).toContain(JSON.stringify(schema));
  },
});
