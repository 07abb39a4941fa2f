import { describe, expect, test } from "bun:test";
import type { Response } from "openai/resources/responses/responses";
import { chatToResponse } from "../../../src/gateway/relay/dialects/responses/from-chat";
import { responsesToChat } from "../../../src/gateway/relay/dialects/responses/to-chat";

const request = {
  model: "gpt-x",
  instructions: "Be brief.",
  input: "Edit the file",
  metadata: { team: "a" },
  tools: [
    { type: "function", name: "github.search", parameters: { type: "object", properties: {} } },
    { type: "custom", name: "apply_patch" },
    { type: "namespace", name: "mcp", description: "MCP", tools: [{ type: "function", name: "read" }] },
    { type: "web_search" },
  ],
};
const { toolNames } = responsesToChat(request);
const context = { request, toolNames };
const chatNameOf = (name: string) => Object.keys(toolNames).find((chatName) => toolNames[chatName]!.name === name)!;

describe("a chat completion translated to a Responses response", () => {
  test("reasoning, text and usage with cached and reasoning tokens", () => {
    const response: Response = chatToResponse(
      {
        id: "chatcmpl-1",
        model: "gpt-x-2025",
        created: 1700000000,
        choices: [{ message: { content: "Done.", reasoning_content: "Think first." }, finish_reason: "stop" }],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 30,
          total_tokens: 130,
          prompt_tokens_details: { cached_tokens: 60, cached_creation_tokens: 10 },
          completion_tokens_details: { reasoning_tokens: 12 },
        },
      },
      context,
    ) as unknown as Response;
    expect(response.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(response).toMatchObject({
      object: "response",
      status: "completed",
      incomplete_details: null,
      created_at: 1700000000,
      model: "gpt-x-2025",
      instructions: "Be brief.",
      metadata: { team: "a" },
      output_text: "Done.",
      usage: {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 12 },
        total_tokens: 130,
      },
    });
    expect(response.output).toMatchObject([
      { type: "reasoning", summary: [{ type: "summary_text", text: "Think first." }] },
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Done." }] },
    ]);
    expect(response.output[0]!.id).toMatch(/^rs_/);
    expect((response.output[1] as any).id).toMatch(/^msg_/);
  });

  test("tool calls come back under the names the caller offered, custom ones with their free-form input", () => {
    const response = chatToResponse(
      {
        choices: [
          {
            message: {
              content: null,
              tool_calls: [
                {
                  id: "call_1",
                  type: "function",
                  function: { name: chatNameOf("github.search"), arguments: '{"q":"x"}' },
                },
                {
                  id: "call_2",
                  type: "function",
                  function: { name: "apply_patch", arguments: JSON.stringify({ input: "*** Begin Patch" }) },
                },
                { id: "call_3", type: "function", function: { name: "mcp__read", arguments: "{}" } },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 7 },
      },
      context,
    ) as unknown as Response;
    expect(response.status).toBe("completed");
    expect(response.output).toMatchObject([
      { type: "function_call", call_id: "call_1", name: "github.search", arguments: '{"q":"x"}', status: "completed" },
      { type: "custom_tool_call", call_id: "call_2", name: "apply_patch", input: "*** Begin Patch" },
      { type: "function_call", call_id: "call_3", name: "read", namespace: "mcp", arguments: "{}" },
    ]);
    expect((response.output[0] as any).id).toMatch(/^fc_/);
    expect(response.output_text).toBe("");
    expect(response.usage).toMatchObject({ input_tokens: 5, output_tokens: 7, total_tokens: 12 });
  });

  test("a reply cut at the token limit is incomplete for max_output_tokens", () => {
    const response = chatToResponse(
      { choices: [{ message: { content: "Half" }, finish_reason: "length" }], usage: null },
      context,
    );
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(response.usage).toBeNull();
    expect(response.model).toBe("gpt-x");
  });
});
