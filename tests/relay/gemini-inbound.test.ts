import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiError, GoogleGenAI, Type } from "@google/genai";
import { estimatePromptTokens } from "../../src/service/relay/endpoints";
import { DIALECTS } from "../support/databases";
import { startFakeGemini } from "../support/fake-gemini";
import { DEFAULT_CONTENT, DEFAULT_PROMPT_TOKENS, type FakeUpstream } from "../support/fake-upstream";
import { FAKE_TOOL_CALLS, startToolUpstream, TOOL_USAGE } from "./anthropic-tool-upstream";
import { startGeminiEmbedUpstream, type EmbedUpstream } from "./gemini-embed-upstream";
import { expectedQuota, startRelayEnv, type RelayEnv } from "./support";

const WORDS = DEFAULT_CONTENT.split(" ").length;
const PRICES = { ratio: 2, completionRatio: 3 };
const MODELS = ["gpt-test", "tools-test", "gemini-test", "embed-test", "gemini-embed"];

const weatherTool = {
  functionDeclarations: [
    {
      name: "get_weather",
      description: "Weather of a city",
      parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ["city"] },
    },
  ],
};

describe.each(DIALECTS)("Gemini inbound with @google/genai on %s", (dialect) => {
  let r: RelayEnv;
  let tools: FakeUpstream;
  let gemini: FakeUpstream;
  let embedder: EmbedUpstream;
  const client = (apiKey = r.key) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: r.s.url } });
  const post = (path: string, body: unknown, key = r.key) =>
    fetch(`${r.s.url}${path}`, {
      method: "POST",
      headers: { "x-goog-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const ask = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    tools = startToolUpstream();
    gemini = startFakeGemini({ apiKey: "AIza-upstream" });
    embedder = startGeminiEmbedUpstream("AIza-embed");
    await r.setPrices(
      Object.fromEntries(MODELS.map((m) => [m, PRICES.ratio])),
      Object.fromEntries(MODELS.map((m) => [m, PRICES.completionRatio])),
    );
    await r.addChannel({ models: "gpt-test,embed-test" });
    await r.addChannel({ models: "tools-test" }, tools);
    await r.addChannel({ type: 24, key: "AIza-upstream", models: "gemini-test" }, gemini);
    await r.addChannel(
      {
        type: 24,
        key: "AIza-embed",
        models: "gemini-embed",
        model_mapping: JSON.stringify({ "gemini-embed": "text-embedding-004" }),
      },
      { url: embedder.url } as FakeUpstream,
    );
  });
  afterAll(async () => {
    await r.stop();
    await tools.stop();
    await gemini.stop();
    embedder.stop();
  });

  /** The user's balance fell by exactly `quota`, and the call's one log row says so, naming dialect and family. */
  const billed = async (before: { quota: number }, quota: number, family: string) => {
    const after = await r.userRow();
    expect(before.quota - after.quota).toBe(quota);
    const log = (await r.consumeLogs()).at(-1);
    expect(log.quota).toBe(quota);
    expect(JSON.parse(log.other)).toMatchObject({ inbound: "gemini", family });
    expect((await r.consumeLogs()).filter((l) => l.request_id === log.request_id)).toHaveLength(1);
    return log;
  };
  const textQuota = expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ...PRICES });

  test("generateContent on an OpenAI channel is translated both ways and billed exactly", async () => {
    const before = await r.userRow();
    const reply = await client().models.generateContent({
      model: "gpt-test",
      contents: "hi",
      config: { systemInstruction: "Be brief.", temperature: 0.5, maxOutputTokens: 100, stopSequences: ["END"] },
    });
    expect(reply.text).toBe(DEFAULT_CONTENT);
    expect(reply.candidates?.[0]?.finishReason).toBe("STOP" as never);
    expect(reply.usageMetadata).toMatchObject({ promptTokenCount: DEFAULT_PROMPT_TOKENS, candidatesTokenCount: WORDS });
    const sent = r.fake.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.body).toMatchObject({
      model: "gpt-test",
      temperature: 0.5,
      max_tokens: 100,
      stop: ["END"],
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
    });
    const log = await billed(before, textQuota, "openai");
    expect(log).toMatchObject({ model_name: "gpt-test", is_stream: 0, prompt_tokens: DEFAULT_PROMPT_TOKENS });
  });

  test("Google-hosted tools (googleSearch, codeExecution) are left out of a translated call and named in its log row", async () => {
    const before = await r.userRow();
    const reply = await client().models.generateContent({
      model: "gpt-test",
      contents: "hi",
      config: { tools: [{ googleSearch: {} }, { codeExecution: {} }] },
    });
    expect(reply.text).toBe(DEFAULT_CONTENT);
    expect(r.fake.requests.at(-1)!.body.tools).toBeUndefined();
    const log = await billed(before, textQuota, "openai");
    expect(JSON.parse(log.other).dropped_tools).toEqual(["googleSearch", "codeExecution"]);
  });

  test("generateContentStream (SSE, as the SDK asks) arrives as Gemini responses and is billed from the usage", async () => {
    const before = await r.userRow();
    let text = "";
    let usage: unknown;
    for await (const chunk of await client().models.generateContentStream({ model: "gpt-test", contents: "hi" })) {
      text += chunk.text ?? "";
      usage = chunk.usageMetadata ?? usage;
    }
    expect(text).toBe(DEFAULT_CONTENT);
    expect(usage).toMatchObject({ promptTokenCount: DEFAULT_PROMPT_TOKENS, candidatesTokenCount: WORDS });
    expect(r.fake.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    const log = await billed(before, textQuota, "openai");
    expect(log.is_stream).toBe(1);
  });

  test("streamGenerateContent without alt=sse answers Gemini's streamed JSON array", async () => {
    const before = await r.userRow();
    const response = await post("/v1beta/models/gpt-test:streamGenerateContent", ask);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const responses = (await response.json()) as any[];
    expect(responses.map((x) => x.candidates?.[0]?.content?.parts?.[0]?.text ?? "").join("")).toBe(DEFAULT_CONTENT);
    expect(responses.at(-1).usageMetadata).toMatchObject({ promptTokenCount: DEFAULT_PROMPT_TOKENS });
    await billed(before, textQuota, "openai");
  });

  test("a tools round trip: the OpenAI tool calls reach the SDK as functionCalls, the responses go back as tool messages", async () => {
    const before = await r.userRow();
    const config = { tools: [weatherTool] };
    const question = { role: "user", parts: [{ text: "Weather in Paris?" }] };
    const first = await client().models.generateContent({ model: "tools-test", contents: [question], config });
    expect(first.functionCalls).toEqual(FAKE_TOOL_CALLS.map((c) => ({ id: c.id, name: c.name, args: c.arguments })));
    await billed(
      before,
      expectedQuota({ prompt: TOOL_USAGE.prompt_tokens, completion: TOOL_USAGE.completion_tokens, ...PRICES }),
      "openai",
    );
    const answers = first.functionCalls!.map((call) => ({
      functionResponse: { id: call.id, name: call.name, response: { ok: call.name } },
    }));
    await client().models.generateContent({
      model: "tools-test",
      contents: [question, first.candidates![0]!.content!, { role: "user", parts: answers }],
      config,
    });
    const sent = tools.requests.at(-1)!.body;
    expect(sent.tools[0].function.name).toBe("get_weather");
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
      ...FAKE_TOOL_CALLS.map((c) => ({ role: "tool", tool_call_id: c.id, content: JSON.stringify({ ok: c.name }) })),
    ]);
  });

  test("countTokens answers the gateway's estimate without an upstream call or a charge", async () => {
    const before = await r.userRow();
    const logs = (await r.consumeLogs()).length;
    const calls = r.fake.requests.length;
    const reply = await client().models.countTokens({ model: "gpt-test", contents: "How warm is Paris today?" });
    const estimate = estimatePromptTokens("chat", "gpt-test", {
      messages: [{ role: "user", content: "How warm is Paris today?" }],
    });
    expect(reply.totalTokens).toBe(estimate);
    expect(r.fake.requests.length).toBe(calls);
    expect((await r.userRow()).quota).toBe(before.quota);
    expect((await r.consumeLogs()).length).toBe(logs);
  });

  test("embedContent goes through the relay's embeddings path and is billed like /v1/embeddings", async () => {
    const before = await r.userRow();
    const reply = await client().models.embedContent({ model: "embed-test", contents: ["one", "two"] });
    expect(reply.embeddings).toHaveLength(2);
    expect(reply.embeddings![0]!.values).toHaveLength(8);
    const sent = r.fake.requests.at(-1)!;
    expect(sent.path).toBe("/v1/embeddings");
    expect(sent.body).toMatchObject({ model: "embed-test", input: ["one", "two"] });
    await billed(before, expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: 0, ...PRICES }), "openai");
    const single = await post("/v1beta/models/embed-test:embedContent", { content: { parts: [{ text: "one" }] } });
    expect(((await single.json()) as any).embedding.values).toHaveLength(8);
    expect(r.fake.requests.at(-1)!.body).toMatchObject({ model: "embed-test", input: "one" });
  });

  test("models list and get: the caller's models in Gemini's shape; an unknown one is a 404 in Google's shape", async () => {
    const names: string[] = [];
    for await (const model of await client().models.list()) names.push(model.name ?? "");
    expect(names).toEqual(MODELS.toSorted().map((m) => `models/${m}`));
    const one = await client().models.get({ model: "gpt-test" });
    expect(one).toMatchObject({
      name: "models/gpt-test",
      supportedActions: expect.arrayContaining(["generateContent"]),
    });
    for (const prefix of ["/v1beta", "/v1"]) {
      const missing = await fetch(`${r.s.url}${prefix}/models/nope?key=${r.key}`);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as any).error).toMatchObject({ code: 404, status: "NOT_FOUND" });
      const page = await fetch(`${r.s.url}${prefix}/models?pageSize=2`, { headers: { "x-goog-api-key": r.key } });
      expect(await page.json()).toMatchObject({ models: [{ name: "models/embed-test" }, {}], nextPageToken: "2" });
    }
    // An OpenAI client still gets OpenAI's list there.
    const openai = await fetch(`${r.s.url}/v1/models`, { headers: { authorization: `Bearer ${r.key}` } });
    expect(((await openai.json()) as any).object).toBe("list");
  });

  test("a bad key is a 401 in Google's error shape, from header or ?key=", async () => {
    const viaHeader = await post("/v1beta/models/gpt-test:generateContent", ask, "sk-wrong");
    expect(viaHeader.status).toBe(401);
    const body = (await viaHeader.json()) as any;
    expect(body.error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" });
    expect(typeof body.error.message).toBe("string");
    const viaQuery = await fetch(`${r.s.url}/v1beta/models/gpt-test:generateContent?key=sk-wrong`, {
      method: "POST",
      body: JSON.stringify(ask),
    });
    expect(viaQuery.status).toBe(401);
    const error = await client("sk-wrong")
      .models.generateContent({ model: "gpt-test", contents: "hi" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
  });

  test("candidateCount > 1 is asked of the upstream: n on an OpenAI channel, untouched on a Gemini channel", async () => {
    await client().models.generateContent({ model: "gpt-test", contents: "hi", config: { candidateCount: 2 } });
    expect(r.fake.requests.at(-1)!.body).toMatchObject({ model: "gpt-test", n: 2 });
    const reply = await client().models.generateContent({
      model: "gemini-test",
      contents: "hi",
      config: { candidateCount: 2 },
    });
    expect(reply.text).toBe(DEFAULT_CONTENT);
    expect(gemini.requests.at(-1)!.body.generationConfig).toEqual({ candidateCount: 2 });
  });

  test("on a Gemini channel the call passes through untouched but for the model, billed from its usageMetadata", async () => {
    const before = await r.userRow();
    const body = { ...ask, generationConfig: { temperature: 0.3 }, safetySettings: [] };
    const response = await fetch(`${r.s.url}/v1beta/models/gemini-test:generateContent?key=${r.key}`, {
      method: "POST",
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const reply = (await response.json()) as any;
    expect(reply.responseId).toMatch(/^fake-/);
    expect(reply.candidates[0].content.parts[0].text).toBe(DEFAULT_CONTENT);
    const sent = gemini.requests.at(-1)!;
    expect(sent).toMatchObject({ path: "/v1beta/models/gemini-test:generateContent", search: "" });
    expect(sent.headers["x-goog-api-key"]).toBe("AIza-upstream");
    expect(sent.body).toEqual(body);
    await billed(before, textQuota, "gemini");
  });

  test("pass-through streams on a Gemini channel, SSE and JSON array, are billed from the last usageMetadata", async () => {
    let before = await r.userRow();
    let text = "";
    for await (const chunk of await client().models.generateContentStream({ model: "gemini-test", contents: "hi" })) {
      text += chunk.text ?? "";
    }
    expect(text).toBe(DEFAULT_CONTENT);
    expect(gemini.requests.at(-1)!).toMatchObject({
      path: "/v1beta/models/gemini-test:streamGenerateContent",
      search: "?alt=sse",
    });
    await billed(before, textQuota, "gemini");
    before = await r.userRow();
    const response = await post("/v1beta/models/gemini-test:streamGenerateContent", ask);
    expect(response.headers.get("content-type")).toContain("application/json");
    const responses = (await response.json()) as any[];
    expect(responses.length).toBe(WORDS);
    expect(gemini.requests.at(-1)!).toMatchObject({
      path: "/v1beta/models/gemini-test:streamGenerateContent",
      search: "",
    });
    const log = await billed(before, textQuota, "gemini");
    expect(JSON.parse(log.other).usage_source).toBe("upstream");
  });

  test("embedContent on a Gemini channel passes through with the upstream model, billed like /v1/embeddings", async () => {
    const before = await r.userRow();
    const body = { content: { parts: [{ text: "one two three" }] } };
    const response = await post("/v1beta/models/gemini-embed:embedContent", body);
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).embedding.values).toEqual([1, 2, 3]);
    expect(embedder.requests.at(-1)).toEqual({ path: "/v1beta/models/text-embedding-004:embedContent", body });
    const prompt = estimatePromptTokens("embeddings", "gemini-embed", { input: "one two three" });
    await billed(before, expectedQuota({ prompt, completion: 0, ...PRICES }), "gemini");
  });
});
