import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { startFakeAnthropic } from "../support/fake-anthropic";
import { startFakeGemini } from "../support/fake-gemini";
import { DEFAULT_CONTENT, DEFAULT_PROMPT_TOKENS, type FakeUpstream } from "../support/fake-upstream";
import { FAKE_TOOL_CALLS, startToolUpstream, TOOL_USAGE } from "./anthropic-tool-upstream";
import { expectedQuota, startRelayEnv, waitFor, type RelayEnv } from "./support";

const WORDS = DEFAULT_CONTENT.split(" ").length;
const PRICES = { ratio: 2, completionRatio: 3 };
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

describe.each(DIALECTS)("Anthropic Messages inbound with @anthropic-ai/sdk on %s", (dialect) => {
  let r: RelayEnv;
  let tools: FakeUpstream;
  let claude: FakeUpstream;
  let gemini: FakeUpstream;
  const client = (apiKey = r.key) => new Anthropic({ apiKey, baseURL: r.s.url, maxRetries: 0 });
  const lastLog = async () => (await r.consumeLogs()).at(-1);

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    tools = startToolUpstream();
    claude = startFakeAnthropic({ apiKey: "sk-ant-upstream" });
    gemini = startFakeGemini({ apiKey: "AIza-upstream" });
    const models = ["gpt-test", "tools-test", "claude-test", "gemini-test"];
    await r.setPrices(
      Object.fromEntries(models.map((m) => [m, PRICES.ratio])),
      Object.fromEntries(models.map((m) => [m, PRICES.completionRatio])),
    );
    await r.s.root.put("/api/option/", {
      key: "CacheRatio",
      value: JSON.stringify({ ...r.s.ctx.options.json<object>("CacheRatio"), "claude-test": 0.1 }),
    });
    await r.addChannel({ models: "gpt-test" });
    await r.addChannel({ models: "tools-test" }, tools);
    await r.addChannel(
      {
        type: 14,
        key: "sk-ant-upstream",
        models: "claude-test",
        model_mapping: JSON.stringify({ "claude-test": "claude-upstream" }),
      },
      claude,
    );
    await r.addChannel({ type: 24, key: "AIza-upstream", models: "gemini-test" }, gemini);
  });
  afterAll(async () => {
    await r.stop();
    await tools.stop();
    await claude.stop();
    await gemini.stop();
  });

  const billed = async (before: { quota: number }, quota: number) => {
    const after = await r.userRow();
    expect(before.quota - after.quota).toBe(quota);
    const log = await lastLog();
    expect(log.quota).toBe(quota);
    return { log, other: JSON.parse(log.other) };
  };

  test("a non-stream call on an OpenAI channel is translated both ways and billed exactly, the log naming dialect and family", async () => {
    const before = await r.userRow();
    const message = await client().messages.create({
      model: "gpt-test",
      max_tokens: 100,
      system: [{ type: "text", text: "Be brief." }],
      messages: [{ role: "user", content: "hi" }],
      stop_sequences: ["END"],
      thinking: { type: "enabled", budget_tokens: 1024 },
      metadata: { user_id: "u-1" },
      // Sampling parameters this SDK's types no longer list; Claude Code and older SDKs still send them.
      ...({ temperature: 0.5, top_k: 5 } as object),
    });
    expect(message.type).toBe("message");
    expect(message.content as unknown[]).toEqual([{ type: "text", text: DEFAULT_CONTENT }]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage).toMatchObject({ input_tokens: DEFAULT_PROMPT_TOKENS, output_tokens: WORDS });
    const sent = r.fake.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.body).toMatchObject({
      model: "gpt-test",
      max_tokens: 100,
      stop: ["END"],
      temperature: 0.5,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
    });
    // Extension fields the OpenAI API does not take are not sent to it.
    expect(sent.body.top_k).toBeUndefined();
    expect(sent.body.thinking_budget).toBeUndefined();
    expect(sent.body.metadata).toBeUndefined();
    const quota = expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ...PRICES });
    const { log, other } = await billed(before, quota);
    expect(log).toMatchObject({ model_name: "gpt-test", is_stream: 0, prompt_tokens: DEFAULT_PROMPT_TOKENS });
    expect(other).toMatchObject({ inbound: "anthropic", family: "openai", usage_source: "upstream" });
    expect((await r.consumeLogs()).filter((l) => l.request_id === log.request_id)).toHaveLength(1);
  });

  test("a stream on an OpenAI channel arrives as Anthropic events (message_start … message_stop) and is billed from the upstream's usage", async () => {
    const before = await r.userRow();
    const stream = client().messages.stream({
      model: "gpt-test",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    });
    const types: string[] = [];
    stream.on("streamEvent", (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(message.content.map((b) => (b.type === "text" ? b.text : ""))).toEqual([DEFAULT_CONTENT]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage).toMatchObject({ input_tokens: DEFAULT_PROMPT_TOKENS, output_tokens: WORDS });
    expect(types[0]).toBe("message_start");
    expect(types.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
    expect(types.filter((t) => t === "content_block_delta")).toHaveLength(WORDS);
    expect(r.fake.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    const { log, other } = await billed(
      before,
      expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ...PRICES }),
    );
    expect(log.is_stream).toBe(1);
    expect(other).toMatchObject({ inbound: "anthropic", family: "openai", usage_source: "upstream" });
  });

  const toolParams = {
    model: "tools-test",
    max_tokens: 200,
    tools: [
      {
        name: "get_weather",
        description: "Weather of a city",
        input_schema: { type: "object" as const, properties: { city: { type: "string" } } },
      },
      { name: "get_time", input_schema: { type: "object" as const, properties: { zone: { type: "string" } } } },
    ],
    tool_choice: { type: "any" as const },
  };

  test("tools round trip: parallel tool_use blocks come back (also streamed as input_json_delta), tool_result goes up as tool messages", async () => {
    const first = await client().messages.create({
      ...toolParams,
      messages: [{ role: "user", content: "weather and time?" }],
    });
    expect(first.stop_reason).toBe("tool_use");
    expect(first.content).toEqual(
      FAKE_TOOL_CALLS.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.arguments })) as any,
    );
    const up = tools.requests.at(-1)!.body;
    expect(up.tool_choice).toBe("required");
    expect(up.tools[0]).toEqual({
      type: "function",
      function: {
        name: "get_weather",
        description: "Weather of a city",
        parameters: toolParams.tools[0]!.input_schema,
      },
    });

    const streamed = await client()
      .messages.stream({ ...toolParams, messages: [{ role: "user", content: "again" }] })
      .finalMessage();
    expect(streamed.content as unknown[]).toEqual(first.content);
    expect(streamed.stop_reason).toBe("tool_use");
    expect(streamed.usage).toMatchObject({
      input_tokens: TOOL_USAGE.prompt_tokens,
      output_tokens: TOOL_USAGE.completion_tokens,
    });

    const before = await r.userRow();
    await client().messages.create({
      ...toolParams,
      tool_choice: { type: "tool", name: "get_weather" },
      messages: [
        { role: "user", content: "weather and time?" },
        { role: "assistant", content: first.content as Anthropic.ContentBlockParam[] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_weather", content: "sunny" },
            { type: "tool_result", tool_use_id: "call_time", content: [{ type: "text", text: "noon" }] },
          ],
        },
      ],
    });
    const sent = tools.requests.at(-1)!.body;
    expect(sent.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
    expect(sent.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: FAKE_TOOL_CALLS.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        })),
      },
      { role: "tool", tool_call_id: "call_weather", content: "sunny" },
      { role: "tool", tool_call_id: "call_time", content: "noon" },
    ]);
    const quota = expectedQuota({
      prompt: TOOL_USAGE.prompt_tokens,
      completion: TOOL_USAGE.completion_tokens,
      ...PRICES,
    });
    await billed(before, quota);
  });

  test("images in base64 and by URL become image_url parts", async () => {
    await client().messages.create({
      model: "gpt-test",
      max_tokens: 50,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what are these?" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG } },
            { type: "image", source: { type: "url", url: "https://example.com/cat.png" } },
          ],
        },
      ],
    });
    expect(r.fake.requests.at(-1)!.body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "what are these?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${TINY_PNG}` } },
          { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
        ],
      },
    ]);
  });

  test("count_tokens answers the gateway's estimate with no upstream call and no charge", async () => {
    const before = await r.userRow();
    const logs = (await r.consumeLogs()).length;
    const calls = r.fake.requests.length;
    const counted = await client().messages.countTokens({
      model: "gpt-test",
      messages: [{ role: "user", content: "hello there, how are you?" }],
    });
    expect(counted.input_tokens).toBeGreaterThan(5);
    const longer = await client().messages.countTokens({
      model: "gpt-test",
      system: "You are a careful assistant who answers every question in full sentences.",
      messages: [{ role: "user", content: "hello there, how are you?" }],
    });
    expect(longer.input_tokens).toBeGreaterThan(counted.input_tokens);
    expect(r.fake.requests.length).toBe(calls);
    expect((await r.consumeLogs()).length).toBe(logs);
    expect((await r.userRow()).quota).toBe(before.quota);
  });

  test("the key is taken from x-api-key or Authorization: Bearer, with query parameters on the path; a bad key is a 401 in Anthropic's shape", async () => {
    const bearer = await fetch(`${r.s.url}/v1/messages?beta=true`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${r.key}`,
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({ model: "gpt-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(bearer.status).toBe(200);
    expect((await bearer.json()).type).toBe("message");

    const error = await client("sk-not-a-real-key-0123456789")
      .messages.create({ model: "gpt-test", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.error).toMatchObject({ type: "error", error: { type: "authentication_error" } });
  });

  test("a request the pivot cannot take is a 400 invalid_request_error naming the parameter; an unknown model is not a 200", async () => {
    const response = await fetch(`${r.s.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": r.key, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-test", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(body.error.message).toContain("max_tokens");
    const missing = await client()
      .messages.create({ model: "no-such-model", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(missing).toBeInstanceOf(Anthropic.APIError);
    expect(missing.error.type).toBe("error");
  });

  test("on an Anthropic channel the call passes through: body with the mapped model, version and beta headers, reply untouched, billed with its cache usage", async () => {
    claude.queueBehavior({ promptTokens: 20, completionTokens: 5, cachedTokens: 6, cacheWriteTokens: 8 });
    const before = await r.userRow();
    const { data: message, response } = await client()
      .messages.create(
        {
          model: "claude-test",
          max_tokens: 100,
          messages: [{ role: "user", content: "hi" }],
          ...({ top_k: 3 } as object),
        },
        { headers: { "anthropic-version": "2023-06-01", "anthropic-beta": "prompt-caching-2024-07-31" } },
      )
      .withResponse();
    expect(response.status).toBe(200);
    expect(message.id).toMatch(/^msg_fake_/);
    expect(message.model).toBe("claude-upstream");
    expect(message.usage).toMatchObject({
      input_tokens: 20,
      output_tokens: 5,
      cache_read_input_tokens: 6,
      cache_creation_input_tokens: 8,
    });
    const sent = claude.requests.at(-1)!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.body).toEqual({
      model: "claude-upstream",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
      top_k: 3,
    });
    expect(sent.headers["x-api-key"]).toBe("sk-ant-upstream");
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent.headers["anthropic-beta"]).toBe("prompt-caching-2024-07-31");
    const quota = expectedQuota({ prompt: 34, completion: 5, cached: 6, written: 8, cacheRatio: 0.1, ...PRICES });
    const { other } = await billed(before, quota);
    expect(other).toMatchObject({
      inbound: "anthropic",
      family: "anthropic",
      usage_source: "upstream",
      cache_tokens: 6,
    });
  });

  test("a stream on an Anthropic channel is relayed event for event and billed from message_start and message_delta", async () => {
    const before = await r.userRow();
    const stream = client().messages.stream({
      model: "claude-test",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    });
    const message = await stream.finalMessage();
    expect(message.content.map((b) => (b.type === "text" ? b.text : ""))).toEqual([DEFAULT_CONTENT]);
    expect(claude.requests.at(-1)!.body.stream).toBe(true);
    const { log, other } = await billed(
      before,
      expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ...PRICES }),
    );
    expect(log.is_stream).toBe(1);
    expect(other).toMatchObject({ inbound: "anthropic", family: "anthropic", usage_source: "upstream" });
  });

  test("an OpenAI call's log row records the openai dialect and family", async () => {
    await r.openai().chat.completions.create({ model: "gpt-test", messages: [{ role: "user", content: "hi" }] });
    expect(JSON.parse((await lastLog()).other)).toMatchObject({ inbound: "openai", family: "openai" });
  });

  test("upstream and gateway refusals keep their status in Anthropic's error types: 429 rate_limit_error, 529 overloaded_error, 403 permission_error", async () => {
    const call = (model: string, key = r.key) =>
      client(key)
        .messages.create({ model, max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
        .catch((e) => e);
    r.fake.queueBehavior({ status: 429 });
    const limited = await call("gpt-test");
    expect(limited.status).toBe(429);
    expect(limited.error).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    claude.queueBehavior({ status: 529 });
    const overloaded = await call("claude-test");
    expect(overloaded.status).toBe(529);
    expect(overloaded.error.error.type).toBe("overloaded_error");
    const limitedKey = await r.newKey({ model_limits_enabled: true, model_limits: "claude-test" });
    const forbidden = await call("gpt-test", limitedKey.key);
    expect(forbidden.status).toBe(403);
    expect(forbidden.error.error.type).toBe("permission_error");
  });

  test("on a Gemini channel the call goes through the pivot and the Gemini family, stream and not, billed exactly", async () => {
    const params = { model: "gemini-test", max_tokens: 100, messages: [{ role: "user" as const, content: "hi" }] };
    const quota = expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ...PRICES });
    let before = await r.userRow();
    const message = await client().messages.create(params);
    expect(message.content as unknown[]).toEqual([{ type: "text", text: DEFAULT_CONTENT }]);
    expect(gemini.requests.at(-1)!.body.contents).toEqual([{ role: "user", parts: [{ text: "hi" }] }]);
    const { other } = await billed(before, quota);
    expect(other).toMatchObject({ inbound: "anthropic", family: "gemini" });
    before = await r.userRow();
    const streamed = await client().messages.stream(params).finalMessage();
    expect(streamed.content.map((b) => (b.type === "text" ? b.text : ""))).toEqual([DEFAULT_CONTENT]);
    expect(streamed.usage).toMatchObject({ input_tokens: DEFAULT_PROMPT_TOKENS, output_tokens: WORDS });
    await billed(before, quota);
  });

  test("a client that leaves an Anthropic channel's stream early is still billed from the usage the upstream goes on to report", async () => {
    claude.queueBehavior({ chunkDelayMs: 30 });
    const logs = (await r.consumeLogs()).length;
    const before = await r.userRow();
    const abort = new AbortController();
    const response = await fetch(`${r.s.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": r.key, "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-test",
        max_tokens: 100,
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      }),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("message_start");
    abort.abort();
    await waitFor(async () => (await r.consumeLogs()).length > logs);
    const { log, other } = await billed(
      before,
      expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ...PRICES }),
    );
    expect(log.completion_tokens).toBe(WORDS);
    expect(other).toMatchObject({ usage_source: "upstream", stream_status: { end_reason: "client_gone" } });
  });
});
