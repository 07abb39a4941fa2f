import { describe, expect, test } from "bun:test";
import type { ResponseCreateParams } from "openai/resources/responses/responses";
import { responsesToChat } from "../../../src/gateway/relay/dialects/responses/to-chat";
import { RelayError } from "../../../src/shared/relay-error";

const translate = (request: ResponseCreateParams) => responsesToChat(request);

function refusal(request: unknown): RelayError {
  try {
    responsesToChat(request as ResponseCreateParams);
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error("the request was translated");
}

/** What Codex CLI sends on a turn that continues after a tool round trip. */
const codexTurn: ResponseCreateParams = {
  model: "gpt-5-codex",
  instructions: "You are Codex.",
  input: [
    { type: "message", role: "developer", content: [{ type: "input_text", text: "Sandbox: read-only." }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "List the files." }] },
    { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "I should run ls." }] },
    { type: "function_call", call_id: "call_1", name: "shell", arguments: '{"command":["ls"]}' },
    { type: "function_call_output", call_id: "call_1", output: "a.txt\nb.txt" },
    { type: "custom_tool_call", call_id: "call_2", name: "apply_patch", input: "*** Begin Patch\n*** End Patch" },
    { type: "custom_tool_call_output", call_id: "call_2", output: "Done." },
    {
      type: "message",
      id: "msg_1",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: "Two files.", annotations: [] }],
    },
    { role: "user", content: "Thanks" },
  ],
  tools: [
    {
      type: "function",
      name: "shell",
      description: "Runs a command",
      parameters: { type: "object", properties: { command: { type: "array", items: { type: "string" } } } },
      strict: false,
    },
    {
      type: "custom",
      name: "apply_patch",
      description: "Edits files",
      format: { type: "grammar", syntax: "lark", definition: 'start: "*** Begin Patch"' },
    },
    { type: "web_search" },
    { type: "file_search", vector_store_ids: ["vs_1"] },
  ],
  tool_choice: "auto",
  parallel_tool_calls: false,
  reasoning: { effort: "high", summary: "auto" },
  store: false,
  include: ["reasoning.encrypted_content"],
  prompt_cache_key: "session-1",
  stream: true,
};

describe("a Responses request translated to chat completions", () => {
  test("a string input is one user message; instructions become the system message", () => {
    const { chat, hostedTools } = translate({ model: "m", instructions: "Be brief.", input: "Hi" });
    expect(chat).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
    expect(hostedTools).toEqual([]);
  });

  test("a Codex turn: developer → system, reasoning on the assistant turn, calls and their outputs paired by call id", () => {
    const { chat } = translate(codexTurn);
    expect(chat.messages).toEqual([
      { role: "system", content: "You are Codex." },
      { role: "system", content: "Sandbox: read-only." },
      { role: "user", content: "List the files." },
      {
        role: "assistant",
        content: null,
        reasoning_content: "I should run ls.",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "shell", arguments: '{"command":["ls"]}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "a.txt\nb.txt" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_2",
            type: "function",
            function: { name: "apply_patch", arguments: JSON.stringify({ input: "*** Begin Patch\n*** End Patch" }) },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_2", content: "Done." },
      { role: "assistant", content: "Two files." },
      { role: "user", content: "Thanks" },
    ]);
  });

  test("hosted tools are left out and named; function and custom tools become chat functions", () => {
    const { chat, hostedTools, toolNames } = translate(codexTurn);
    expect(hostedTools).toEqual(["web_search", "file_search"]);
    const tools = chat.tools as any[];
    expect(tools.map((tool) => tool.function.name)).toEqual(["shell", "apply_patch"]);
    expect(tools[0].function).toMatchObject({ description: "Runs a command", strict: false });
    expect(tools[1].function.parameters).toMatchObject({ required: ["input"] });
    expect(tools[1].function.description).toContain('start: "*** Begin Patch"');
    expect(toolNames.apply_patch).toEqual({ name: "apply_patch", kind: "custom" });
  });

  test("sampling, reasoning and streaming parameters carry over; stored-state ones are not sent", () => {
    const { chat } = translate({ ...codexTurn, temperature: 0.2, top_p: 0.9, max_output_tokens: 300, user: "u1" });
    expect(chat).toMatchObject({
      tool_choice: "auto",
      parallel_tool_calls: false,
      reasoning_effort: "high",
      prompt_cache_key: "session-1",
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 300,
      user: "u1",
    });
    for (const dropped of ["store", "include", "instructions", "input", "reasoning", "max_output_tokens"]) {
      expect(chat).not.toHaveProperty(dropped);
    }
  });

  test("namespaced and dotted tool names are flattened to valid chat names and mapped back", () => {
    const longName = "x".repeat(80);
    const { chat, toolNames } = translate({
      model: "m",
      input: [
        { type: "function_call", call_id: "c1", name: "read", namespace: "mcp.files", arguments: "{}" } as any,
        { type: "function_call_output", call_id: "c1", output: "ok" },
      ],
      tools: [
        {
          type: "namespace",
          name: "mcp.files",
          description: "File tools",
          tools: [{ type: "function", name: "read" } as any],
        },
        { type: "function", name: "github.search", parameters: null, strict: null },
        { type: "function", name: "github_search", parameters: null, strict: null },
        { type: "function", name: longName, parameters: null, strict: null },
      ],
      tool_choice: { type: "function", name: "github.search" },
    });
    const names = (chat.tools as any[]).map((tool) => tool.function.name);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(4);
    expect(names[0]).toBe("mcp_files__read");
    expect(toolNames.mcp_files__read).toEqual({ name: "read", namespace: "mcp.files", kind: "function" });
    expect(toolNames[names[1]]).toEqual({ name: "github.search", kind: "function" });
    expect(toolNames[names[2]]).toEqual({ name: "github_search", kind: "function" });
    expect(toolNames[names[3]]).toEqual({ name: longName, kind: "function" });
    expect((chat.messages[0] as any).tool_calls[0].function.name).toBe("mcp_files__read");
    expect(chat.tool_choice).toEqual({ type: "function", function: { name: names[1] } });
  });

  test("images: a URL becomes an image part; a tool output's image follows the tool messages as a user message", () => {
    const { chat } = translate({
      model: "m",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "What is this?" },
            { type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "low" },
          ],
        },
        { type: "function_call", call_id: "c1", name: "view_image", arguments: "{}" },
        {
          type: "function_call_output",
          call_id: "c1",
          output: [
            { type: "input_text", text: "the screenshot" },
            { type: "input_image", image_url: "https://example.com/a.png" },
          ],
        },
      ],
    });
    expect(chat.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA", detail: "low" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "view_image", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "the screenshot" },
      { role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }] },
    ]);
  });

  test("an inline file becomes a chat file part", () => {
    const { chat } = translate({
      model: "m",
      input: [
        {
          role: "user",
          content: [{ type: "input_file", file_data: "data:application/pdf;base64,AA", filename: "a.pdf" }],
        },
      ],
    });
    expect(chat.messages[0]!.content).toEqual([
      { type: "file", file: { file_data: "data:application/pdf;base64,AA", filename: "a.pdf" } },
    ]);
  });

  test("text.format becomes response_format", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const withSchema = translate({
      model: "m",
      input: "x",
      text: { format: { type: "json_schema", name: "answer", schema, strict: true }, verbosity: "low" },
    });
    expect(withSchema.chat.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "answer", schema, strict: true },
    });
    expect(withSchema.chat.verbosity).toBe("low");
    expect(
      translate({ model: "m", input: "x", text: { format: { type: "json_object" } } }).chat.response_format,
    ).toEqual({ type: "json_object" });
    expect(translate({ model: "m", input: "x", text: { format: { type: "text" } } }).chat).not.toHaveProperty(
      "response_format",
    );
  });

  test("tool_choice: modes pass, a named custom tool becomes a function choice, nothing is sent without tools", () => {
    const custom = { type: "custom" as const, name: "apply_patch" };
    expect(translate({ ...codexTurn, tool_choice: "required" }).chat.tool_choice).toBe("required");
    expect(translate({ ...codexTurn, tool_choice: custom }).chat.tool_choice).toEqual({
      type: "function",
      function: { name: "apply_patch" },
    });
    const onlyHosted = translate({ model: "m", input: "x", tools: [{ type: "web_search" }], tool_choice: "required" });
    expect(onlyHosted.chat).not.toHaveProperty("tools");
    expect(onlyHosted.chat).not.toHaveProperty("tool_choice");
    expect(onlyHosted.hostedTools).toEqual(["web_search"]);
  });

  test("what needs OpenAI's stored state or servers is refused with a 400 naming the parameter", () => {
    const cases: [unknown, string][] = [
      [{ model: "m", input: "x", previous_response_id: "resp_1" }, "previous_response_id"],
      [{ model: "m", input: "x", conversation: "conv_1" }, "conversation"],
      [{ model: "m", input: "x", background: true }, "background"],
      [{ model: "m", input: [{ type: "item_reference", id: "msg_1" }] }, "item_reference"],
      [{ model: "m", input: [{ role: "user", content: [{ type: "input_image", file_id: "file_1" }] }] }, "file_id"],
      [{ model: "m", input: [{ role: "user", content: [{ type: "input_file", file_id: "file_1" }] }] }, "file_id"],
      [
        {
          model: "m",
          input: "x",
          tools: [{ type: "web_search" }, { type: "function", name: "f" }],
          tool_choice: { type: "web_search" },
        },
        "tool_choice",
      ],
      [
        {
          model: "m",
          input: "x",
          tools: [{ type: "function", name: "f" }],
          tool_choice: { type: "function", name: "g" },
        },
        "tool_choice",
      ],
      [{ model: "m" }, "input"],
      [{ input: "x" }, "model"],
      [{ model: "m", input: [{ role: "tool", content: "x" }] }, "role"],
    ];
    for (const [request, parameter] of cases) {
      const error = refusal(request);
      expect(error.status).toBe(400);
      expect(error.message).toContain(parameter);
    }
  });

  test("a hosted tool's earlier call in the input is left out rather than refused", () => {
    const { chat } = translate({
      model: "m",
      input: [
        { role: "user", content: "search" },
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "q" } } as any,
        { role: "assistant", content: "found it" },
      ],
    });
    expect(chat.messages).toEqual([
      { role: "user", content: "search" },
      { role: "assistant", content: "found it" },
    ]);
  });
});
