import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { startFakeAnthropic } from "../support/fake-anthropic";
import { startFakeGemini } from "../support/fake-gemini";
import { DEFAULT_CONTENT, DEFAULT_PROMPT_TOKENS, type FakeUpstream } from "../support/fake-upstream";
import {
  MISSING_MODEL,
  startChatOnlyUpstream,
  startStoringUpstream,
  TOOL_CALL_USAGE,
  UPSTREAM_INPUT_TOKENS,
} from "./responses-upstreams";
import { expectedQuota, failure, startRelayEnv, type RelayEnv } from "./support";

const WORDS = DEFAULT_CONTENT.split(" ").length;
const PRICES = { ratio: 2, completionRatio: 3 };
const PLAIN_QUOTA = expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ...PRICES });

/** Tools as Codex CLI offers them: hosted ones, a namespaced (MCP) function, a custom free-form tool. */
const CODEX_TOOLS: any[] = [
  {
    type: "namespace",
    name: "mcp__fs",
    description: "Files",
    tools: [{ type: "function", name: "read_file", parameters: { type: "object", properties: {} } }],
  },
  { type: "custom", name: "apply_patch", description: "Apply a patch" },
  { type: "web_search" },
  { type: "file_search", vector_store_ids: ["vs_1"] },
];

describe.each(DIALECTS)("OpenAI Responses inbound with the openai SDK on %s", (dialect) => {
  let r: RelayEnv;
  let storing: FakeUpstream;
  let chatOnly: FakeUpstream;
  let claude: FakeUpstream;
  let gemini: FakeUpstream;
  let chatOnlyChannel: number;
  const lastLog = async () => (await r.consumeLogs()).at(-1);
  const billed = async (before: { quota: number }, quota: number) => {
    const after = await r.userRow();
    expect(before.quota - after.quota).toBe(quota);
    const log = await lastLog();
    expect(log.quota).toBe(quota);
    return { log, other: JSON.parse(log.other) };
  };

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    storing = startStoringUpstream();
    chatOnly = startChatOnlyUpstream();
    claude = startFakeAnthropic({ apiKey: "sk-ant-upstream" });
    gemini = startFakeGemini({ apiKey: "AIza-upstream" });
    const models = [
      MISSING_MODEL,
      "gpt-test",
      "chat-only",
      "forced-native",
      "tools-test",
      "claude-test",
      "gemini-test",
    ];
    await r.setPrices(
      Object.fromEntries(models.map((m) => [m, PRICES.ratio])),
      Object.fromEntries(models.map((m) => [m, PRICES.completionRatio])),
    );
    await r.addChannel({ models: "gpt-test", model_mapping: JSON.stringify({ "gpt-test": "gpt-upstream" }) }, storing);
    await r.addChannel({ models: MISSING_MODEL }, storing);
    chatOnlyChannel = await r.addChannel({ models: "chat-only" }, chatOnly);
    await r.addChannel({ models: "forced-native", setting: JSON.stringify({ responses_api: "native" }) }, chatOnly);
    await r.addChannel({ models: "tools-test", setting: JSON.stringify({ responses_api: "translate" }) }, chatOnly);
    await r.addChannel({ type: 14, key: "sk-ant-upstream", models: "claude-test" }, claude);
    await r.addChannel({ type: 24, key: "AIza-upstream", models: "gemini-test" }, gemini);
  });
  afterAll(async () => {
    await r.stop();
    for (const fake of [storing, chatOnly, claude, gemini]) await fake.stop();
  });

  test("on an OpenAI channel the call passes through to /v1/responses untouched but the model, hosted tools included, billed from its usage", async () => {
    const before = await r.userRow();
    const tools = [{ type: "web_search" as const }];
    const response = await r.openai().responses.create({ model: "gpt-test", input: "hi", tools, store: true });
    expect(response.output_text).toBe(DEFAULT_CONTENT);
    expect(response.id).toMatch(/^resp_fake_/);
    const sent = storing.requests.at(-1)!;
    expect(sent.path).toBe("/v1/responses");
    expect(sent.body).toEqual({ model: "gpt-upstream", input: "hi", tools, store: true });
    const { log, other } = await billed(before, PLAIN_QUOTA);
    expect(log).toMatchObject({
      model_name: "gpt-test",
      prompt_tokens: DEFAULT_PROMPT_TOKENS,
      completion_tokens: WORDS,
    });
    expect(other).toMatchObject({ inbound: "responses", family: "openai", usage_source: "upstream" });
    expect(other.dropped_tools).toBeUndefined();
  });

  test("a pass-through stream is relayed event for event and billed from response.completed", async () => {
    const before = await r.userRow();
    const stream = r.openai().responses.stream({ model: "gpt-test", input: "hi" });
    const types: string[] = [];
    stream.on("event", (event) => types.push(event.type));
    const response = await stream.finalResponse();
    expect(response.output_text).toBe(DEFAULT_CONTENT);
    expect(types.at(-1)).toBe("response.completed");
    expect(storing.requests.at(-1)!.body.stream).toBe(true);
    const { log, other } = await billed(before, PLAIN_QUOTA);
    expect(log.is_stream).toBe(1);
    expect(other).toMatchObject({ inbound: "responses", family: "openai" });
  });

  test("retrieve, input_items, cancel and delete go to the channel that created the response, for its user only", async () => {
    const created = await r.openai().responses.create({ model: "gpt-test", input: "hi" });
    const before = await r.userRow();
    const id = created.id;
    expect((await r.openai().responses.retrieve(id)).id).toBe(id);
    expect(storing.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/responses/${id}` });
    const items = await r.openai().responses.inputItems.list(id, { limit: 5 });
    expect(items.data).toEqual([]);
    expect(storing.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/responses/${id}/input_items` });
    expect(storing.requests.at(-1)!.search).toContain("limit=5");
    expect((await r.openai().responses.cancel(id)).status).toBe("cancelled");
    expect(storing.requests.at(-1)).toMatchObject({ method: "POST", path: `/v1/responses/${id}/cancel` });
    expect(storing.requests.at(-1)!.headers.authorization).toBe("Bearer sk-upstream-key");
    // Another user's key does not reach it.
    const other = await r.s.newUser();
    const { key } = await r.newKey({}, other);
    expect((await failure(r.openai(key).responses.retrieve(id))).status).toBe(404);
    await r.openai().responses.delete(id);
    expect(storing.requests.at(-1)).toMatchObject({ method: "DELETE", path: `/v1/responses/${id}` });
    // Deleted: forgotten. Nothing of this was charged.
    const gone = await failure(r.openai().responses.retrieve(id));
    expect(gone.status).toBe(404);
    expect((await r.userRow()).quota).toBe(before.quota);
  });

  test("a translated response was never stored: retrieving it answers 404 in OpenAI's shape saying so", async () => {
    const created = await r.openai().responses.create({ model: "claude-test", input: "hi" });
    const error = await failure(r.openai().responses.retrieve(created.id));
    expect(error.status).toBe(404);
    expect(error.message).toContain("never stored");
    expect((error.error as any).code).toBe("response_not_found");
  });

  test("input_tokens: an OpenAI channel serving the model counts them; otherwise the gateway's own estimate", async () => {
    const counted = await r.openai().responses.inputTokens.count({ model: "gpt-test", input: "hi" });
    expect(counted.input_tokens).toBe(UPSTREAM_INPUT_TOKENS);
    expect(storing.requests.at(-1)).toMatchObject({ path: "/v1/responses/input_tokens" });
    expect(storing.requests.at(-1)!.body.model).toBe("gpt-upstream");
    const estimated = await r.openai().responses.inputTokens.count({ model: "claude-test", input: "hello there" });
    expect(estimated.input_tokens).toBeGreaterThan(0);
    expect(estimated.input_tokens).not.toBe(UPSTREAM_INPUT_TOKENS);
  });

  test("an upstream answering 404 on /v1/responses gets the call as chat completions on the same channel, charged once, and the channel remembers it until it changes", async () => {
    const before = await r.userRow();
    const seen = chatOnly.requests.length;
    const response = await r.openai().responses.create({ model: "chat-only", input: "hi" });
    expect(response.output_text).toBe(DEFAULT_CONTENT);
    expect(chatOnly.requests.slice(seen).map((q) => q.path)).toEqual(["/v1/responses", "/v1/chat/completions"]);
    const { log, other } = await billed(before, PLAIN_QUOTA);
    expect(other).toMatchObject({ inbound: "responses", family: "openai", usage_source: "upstream" });
    expect((await r.consumeLogs()).filter((l) => l.request_id === log.request_id)).toHaveLength(1);

    const again = chatOnly.requests.length;
    const stream = r.openai().responses.stream({ model: "chat-only", input: "hi" });
    expect((await stream.finalResponse()).output_text).toBe(DEFAULT_CONTENT);
    expect(chatOnly.requests.slice(again).map((q) => q.path)).toEqual(["/v1/chat/completions"]);

    // An edited channel is asked again.
    const edit = await r.s.root.put("/api/channel/", {
      id: chatOnlyChannel,
      setting: JSON.stringify({ responses_api: "auto" }),
    });
    expect(edit.body.success).toBe(true);
    await r.s.ctx.relay.routes.rebuild();
    const third = chatOnly.requests.length;
    await r.openai().responses.create({ model: "chat-only", input: "hi" });
    expect(chatOnly.requests.slice(third).map((q) => q.path)).toEqual(["/v1/responses", "/v1/chat/completions"]);
  });

  test("a 404 naming the model (model_not_found) is the endpoint answering: relayed, not translated, not remembered", async () => {
    for (let i = 0; i < 2; i++) {
      const seen = storing.requests.length;
      const error = await failure(r.openai().responses.create({ model: MISSING_MODEL, input: "hi" }));
      expect(error.status).toBe(404);
      expect(storing.requests.slice(seen).map((q) => q.path)).toEqual(["/v1/responses"]);
    }
  });

  test("a channel set to native relays the upstream's 404 rather than translating, and charges nothing", async () => {
    const before = await r.userRow();
    const seen = chatOnly.requests.length;
    const error = await failure(r.openai().responses.create({ model: "forced-native", input: "hi" }));
    expect(error.status).toBe(404);
    expect(chatOnly.requests.slice(seen).map((q) => q.path)).toEqual(["/v1/responses"]);
    expect((await r.userRow()).quota).toBe(before.quota);
  });

  test("a channel's responses_api setting must name a mode; a bad one is refused and nothing is stored", async () => {
    const count = async () => (await r.s.ctx.db.k.selectFrom("channels").select("id").execute()).length;
    const before = await count();
    const reply = await r.s.root.post("/api/channel/", {
      type: 1,
      name: "bad-setting",
      key: "sk-x",
      base_url: storing.url,
      models: "gpt-test",
      group: "default",
      setting: JSON.stringify({ responses_api: "sometimes" }),
    });
    expect(reply.body).toMatchObject({ success: false });
    expect(reply.body.message).toContain("responses_api must be one of auto, native, translate");
    expect(await count()).toBe(before);
  });

  test("tools round trip on a channel set to translate: function_call out, function_call_output back as a tool message", async () => {
    const before = await r.userRow();
    const tools = [
      { type: "function" as const, name: "get_weather", strict: false, parameters: { type: "object", properties: {} } },
    ];
    const first = await r.openai().responses.create({ model: "tools-test", input: "weather?", tools });
    expect(chatOnly.requests.at(-1)!.path).toBe("/v1/chat/completions");
    const call = first.output.find((item) => item.type === "function_call")!;
    expect(call).toMatchObject({ type: "function_call", name: "get_weather", call_id: "call_echo" });
    await billed(before, expectedQuota({ prompt: 21, completion: 9, ...PRICES }));
    const second = await r.openai().responses.create({
      model: "tools-test",
      tools,
      input: [
        { role: "user", content: "weather?" },
        call as any,
        { type: "function_call_output", call_id: "call_echo", output: "sunny" },
      ],
    });
    expect(second.output_text).toBe(DEFAULT_CONTENT);
    const messages = chatOnly.requests.at(-1)!.body.messages;
    expect(messages.at(-2).tool_calls[0]).toMatchObject({ id: "call_echo", function: { name: "get_weather" } });
    expect(messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_echo", content: "sunny" });
    expect(TOOL_CALL_USAGE.prompt_tokens).toBe(21);
  });

  test("a Codex-style request: hosted tools left out and named in the log row, namespaced tools flattened and named back", async () => {
    const before = await r.userRow();
    const response = await r.openai().responses.create({ model: "tools-test", input: "read it", tools: CODEX_TOOLS });
    const sent = chatOnly.requests.at(-1)!.body;
    expect(sent.tools.map((t: any) => t.function.name)).toEqual(["mcp__fs__read_file", "apply_patch"]);
    expect(response.output[0]).toMatchObject({ type: "function_call", name: "read_file", namespace: "mcp__fs" });
    const { other } = await billed(before, expectedQuota({ prompt: 21, completion: 9, ...PRICES }));
    expect(other).toMatchObject({
      inbound: "responses",
      family: "openai",
      dropped_tools: ["web_search", "file_search"],
    });

    // Streamed, a custom tool's call comes back as custom_tool_call with its free-form input.
    const custom = CODEX_TOOLS.slice(1);
    const stream = r.openai().responses.stream({ model: "tools-test", input: "patch it", tools: custom });
    const final = await stream.finalResponse();
    expect(final.output[0]).toMatchObject({ type: "custom_tool_call", name: "apply_patch", input: "ls" });
  });

  test("what only OpenAI keeps (previous_response_id) passes through to an OpenAI channel, and is refused naming it where the call is translated, charging nothing", async () => {
    await r.openai().responses.create({ model: "gpt-test", input: "again", previous_response_id: "resp_earlier" });
    expect(storing.requests.at(-1)!.body.previous_response_id).toBe("resp_earlier");
    const before = await r.userRow();
    const error = await failure(
      r.openai().responses.create({ model: "claude-test", input: "again", previous_response_id: "resp_earlier" }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain("previous_response_id");
    expect((await r.userRow()).quota).toBe(before.quota);
  });

  test("an image in the input reaches a Gemini channel as inline data", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
    const response = await r.openai().responses.create({
      model: "gemini-test",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "what is this?" },
            { type: "input_image", image_url: `data:image/png;base64,${png}`, detail: "auto" },
          ],
        },
      ],
    });
    expect(response.output_text).toBe(DEFAULT_CONTENT);
    const parts = gemini.requests.at(-1)!.body.contents[0].parts;
    expect(parts).toContainEqual({ text: "what is this?" });
    expect(parts).toContainEqual({ inlineData: { mimeType: "image/png", data: png } });
  });

  for (const [model, family] of [
    ["claude-test", "anthropic"],
    ["gemini-test", "gemini"],
  ] as const) {
    test(`on a ${family} channel the call is translated both ways, streamed in the Responses vocabulary, billed exactly`, async () => {
      const before = await r.userRow();
      const response = await r
        .openai()
        .responses.create({ model, instructions: "Be brief.", input: "hi", tools: [{ type: "web_search" }] });
      expect(response.object).toBe("response");
      expect(response.output_text).toBe(DEFAULT_CONTENT);
      expect(response.usage).toMatchObject({ input_tokens: DEFAULT_PROMPT_TOKENS, output_tokens: WORDS });
      const { other } = await billed(before, PLAIN_QUOTA);
      expect(other).toMatchObject({ inbound: "responses", family, dropped_tools: ["web_search"] });

      const streamed = await r.userRow();
      const stream = r.openai().responses.stream({ model, input: "hi" });
      const types: string[] = [];
      stream.on("event", (event) => types.push(event.type));
      expect((await stream.finalResponse()).output_text).toBe(DEFAULT_CONTENT);
      expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
      expect(types.at(-1)).toBe("response.completed");
      const { log } = await billed(streamed, PLAIN_QUOTA);
      expect(log.is_stream).toBe(1);
    });
  }
});
