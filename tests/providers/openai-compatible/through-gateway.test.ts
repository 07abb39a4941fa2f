import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../../support/databases";
import { startFakeCompat } from "../../support/fake-compat";
import { DEFAULT_CONTENT, DEFAULT_PROMPT_TOKENS, type FakeUpstream } from "../../support/fake-upstream";
import { expectedQuota, startRelayEnv, type RelayEnv } from "../../relay/support";

const WORDS = DEFAULT_CONTENT.split(" ").length;
const PRICES = { ratio: 2, completionRatio: 3 };
const QUOTA = expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ...PRICES });
const ZHIPU_KEY = "zhipu-id.zhipu-secret";

describe.each(DIALECTS)("OpenAI-compatible vendor types through the gateway on %s", (dialect) => {
  let r: RelayEnv;
  let zhipu: FakeUpstream;
  let cloudflare: FakeUpstream;
  let custom: FakeUpstream;
  let zhipuChannel: number;
  const anthropic = () => new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    zhipu = startFakeCompat({ prefix: "/api/paas/v4", apiKey: ZHIPU_KEY, noResponses: true });
    cloudflare = startFakeCompat({ prefix: "/client/v4/accounts/acc-7/ai/v1", apiKey: "cf-token" });
    custom = startFakeCompat({ prefix: "", fullPath: "/deploy/llama-upstream/chat", apiKey: "custom-key" });
    const models = ["glm-test", "cf-test", "custom-test"];
    await r.setPrices(
      Object.fromEntries(models.map((m) => [m, PRICES.ratio])),
      Object.fromEntries(models.map((m) => [m, PRICES.completionRatio])),
    );
    zhipuChannel = await r.addChannel({ type: 26, key: ZHIPU_KEY, models: "glm-test" }, zhipu);
    await r.addChannel({ type: 39, key: "cf-token", other: "acc-7", models: "cf-test" }, cloudflare);
    await r.s.root.post("/api/channel/", {
      type: 8,
      name: "custom",
      key: "custom-key",
      base_url: `${custom.url}/deploy/{model}/chat`,
      group: "default",
      models: "custom-test",
      model_mapping: JSON.stringify({ "custom-test": "llama-upstream" }),
    });
    await r.s.ctx.relay.routes.rebuild();
  });
  afterAll(async () => {
    await r.stop();
    await Promise.all([zhipu.stop(), cloudflare.stop(), custom.stop()]);
  });

  const billed = async (before: { quota: number }, stream: boolean) => {
    expect(before.quota - (await r.userRow()).quota).toBe(QUOTA);
    const log = (await r.consumeLogs()).at(-1);
    expect(log).toMatchObject({ quota: QUOTA, prompt_tokens: DEFAULT_PROMPT_TOKENS, is_stream: stream ? 1 : 0 });
    return JSON.parse(log.other);
  };
  const expectZhipuCall = () => {
    const sent = zhipu.requests.at(-1)!;
    expect(sent.path).toBe("/api/paas/v4/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${ZHIPU_KEY}`);
    return sent;
  };

  test("OpenAI chat on a ZhipuV4 channel goes to /api/paas/v4 with the Bearer key and is billed exactly", async () => {
    const before = await r.userRow();
    const reply = await r
      .openai()
      .chat.completions.create({ model: "glm-test", messages: [{ role: "user", content: "hi" }] });
    expect(reply.choices[0]!.message.content).toBe(DEFAULT_CONTENT);
    expectZhipuCall();
    expect(await billed(before, false)).toMatchObject({ family: "openai" });
  });

  test("an OpenAI chat stream on a ZhipuV4 channel arrives whole and is billed from the upstream's usage", async () => {
    const before = await r.userRow();
    const stream = await r.openai().chat.completions.create({
      model: "glm-test",
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe(DEFAULT_CONTENT);
    expect(expectZhipuCall().body.stream_options).toEqual({ include_usage: true });
    expect(await billed(before, true)).toMatchObject({ usage_source: "upstream" });
  });

  test("Anthropic Messages on a ZhipuV4 channel: translated to chat at the vendor's path, both ways, billed exactly", async () => {
    const before = await r.userRow();
    const message = await anthropic().messages.create({
      model: "glm-test",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(message.content as unknown[]).toEqual([{ type: "text", text: DEFAULT_CONTENT }]);
    expect(message.usage).toMatchObject({ input_tokens: DEFAULT_PROMPT_TOKENS, output_tokens: WORDS });
    expectZhipuCall();
    expect(await billed(before, false)).toMatchObject({ inbound: "anthropic", family: "openai" });
  });

  test("an Anthropic Messages stream on a ZhipuV4 channel arrives as Anthropic events and is billed exactly", async () => {
    const before = await r.userRow();
    const stream = anthropic().messages.stream({
      model: "glm-test",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    });
    const message = await stream.finalMessage();
    expect(message.content.map((b) => (b.type === "text" ? b.text : ""))).toEqual([DEFAULT_CONTENT]);
    expectZhipuCall();
    expect(await billed(before, true)).toMatchObject({ inbound: "anthropic" });
  });

  test("OpenAI Responses on a ZhipuV4 channel (no Responses API there), whole and streamed: translated to chat at the vendor's path after one 404, billed exactly", async () => {
    let before = await r.userRow();
    const sent = zhipu.requests.length;
    const reply = await r.openai().responses.create({ model: "glm-test", input: "hi" });
    expect(reply.output_text).toBe(DEFAULT_CONTENT);
    expect(zhipu.requests.slice(sent).map((q) => q.path)).toEqual([
      "/api/paas/v4/responses",
      "/api/paas/v4/chat/completions",
    ]);
    expect(await billed(before, false)).toMatchObject({ inbound: "responses", family: "openai" });

    before = await r.userRow();
    let text = "";
    for await (const event of await r.openai().responses.create({ model: "glm-test", input: "hi", stream: true }))
      if (event.type === "response.output_text.delta") text += event.delta;
    expect(text).toBe(DEFAULT_CONTENT);
    expectZhipuCall();
    expect(await billed(before, true)).toMatchObject({ inbound: "responses" });
  });

  test("Gemini generateContent on a ZhipuV4 channel, whole and streamed (@google/genai), billed exactly", async () => {
    const genai = new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.s.url } });
    let before = await r.userRow();
    const reply = await genai.models.generateContent({ model: "glm-test", contents: "hi" });
    expect(reply.text).toBe(DEFAULT_CONTENT);
    expectZhipuCall();
    expect(await billed(before, false)).toMatchObject({ inbound: "gemini", family: "openai" });

    before = await r.userRow();
    let text = "";
    for await (const chunk of await genai.models.generateContentStream({ model: "glm-test", contents: "hi" }))
      text += chunk.text ?? "";
    expect(text).toBe(DEFAULT_CONTENT);
    expect(await billed(before, true)).toMatchObject({ inbound: "gemini" });
  });

  test("a Cloudflare channel calls Workers AI under its account id", async () => {
    const before = await r.userRow();
    await r.openai().chat.completions.create({ model: "cf-test", messages: [{ role: "user", content: "hi" }] });
    const sent = cloudflare.requests.at(-1)!;
    expect(sent.path).toBe("/client/v4/accounts/acc-7/ai/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer cf-token");
    await billed(before, false);
  });

  test("a Custom channel calls its full URL, {model} replaced by the upstream model", async () => {
    const before = await r.userRow();
    await r.openai().chat.completions.create({ model: "custom-test", messages: [{ role: "user", content: "hi" }] });
    const sent = custom.requests.at(-1)!;
    expect(sent.path).toBe("/deploy/llama-upstream/chat");
    expect(sent.body.model).toBe("llama-upstream");
    await billed(before, false);
  });

  test("the channel test of a vendor type goes to the vendor's path", async () => {
    const sent = zhipu.requests.length;
    const reply = await r.s.root.get(`/api/channel/test/${zhipuChannel}`);
    expect(reply.body.success).toBe(true);
    expect(zhipu.requests.length).toBe(sent + 1);
    expectZhipuCall();
  });
});
