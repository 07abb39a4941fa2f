import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import type OpenAI from "openai";
import { DIALECTS } from "../../support/databases";
import { DEFAULT_CONTENT, DEFAULT_PROMPT_TOKENS, type FakeUpstream } from "../../support/fake-upstream";
import {
  FAKE_PROJECT,
  startFakeTokenEndpoint,
  startFakeVertex,
  testServiceAccount,
  type FakeTokenEndpoint,
} from "../../support/fake-vertex";
import { expectedQuota, failure, startRelayEnv, type RelayEnv } from "../../relay/support";

const WORDS = DEFAULT_CONTENT.split(" ").length;
const PRICES = { ratio: 2, completionRatio: 3, cacheRatio: 0.1 };
const GEMINI = "gemini-2.5-flash";
const CLAUDE = "claude-sonnet-4@20250514";
const hi = [{ role: "user" as const, content: "hi" }];

describe.each(DIALECTS)("Vertex AI channels (type 41) through the gateway on %s", (dialect) => {
  let r: RelayEnv;
  let tokens: FakeTokenEndpoint;
  let vertex: FakeUpstream;
  let account: Awaited<ReturnType<typeof testServiceAccount>>;
  let channelId: number;
  const genai = () => new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.s.url } });

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    tokens = startFakeTokenEndpoint();
    account = await testServiceAccount(tokens.tokenUri);
    tokens.trust(account.json.client_email, account.publicKeyPem);
    vertex = startFakeVertex(tokens, {
      region: "europe-west4",
      models: ["gemini-2.5-flash", "gemini-2.5-pro", "claude-sonnet-4-5"],
    });
    const models = [GEMINI, CLAUDE];
    await r.setPrices(
      Object.fromEntries(models.map((m) => [m, PRICES.ratio])),
      Object.fromEntries(models.map((m) => [m, PRICES.completionRatio])),
    );
    await r.s.root.put("/api/option/", {
      key: "CacheRatio",
      value: JSON.stringify({ [GEMINI]: PRICES.cacheRatio, [CLAUDE]: PRICES.cacheRatio }),
    });
    channelId = await r.addChannel(
      { type: 41, key: account.key, other: "europe-west4", models: models.join(",") },
      vertex,
    );
  });
  afterAll(async () => {
    await r.stop();
    await vertex.stop();
    await tokens.stop();
  });

  const quotaOf = (prompt: number, completion: number, cached = 0, written = 0) =>
    expectedQuota({ prompt, completion, cached, written, ...PRICES });
  const billed = async (before: { quota: number }, quota: number) => {
    const after = await r.userRow();
    expect(before.quota - after.quota).toBe(quota);
    const log = (await r.consumeLogs()).at(-1);
    expect(log).toMatchObject({ quota, channel_id: channelId });
    expect(JSON.parse(log.other)).toMatchObject({ family: "vertex" });
    return log;
  };
  const sentTo = (publisher: string, model: string, method: string) =>
    `/v1/projects/${FAKE_PROJECT}/locations/europe-west4/publishers/${publisher}/models/${model}:${method}`;

  test("OpenAI chat on a Gemini model: generateContent with a minted bearer token, billed exactly (cached tokens too)", async () => {
    vertex.queueBehavior({ promptTokens: 30, completionTokens: 7, cachedTokens: 12 });
    const before = await r.userRow();
    const reply = await r.openai().chat.completions.create({ model: GEMINI, messages: hi });
    expect(reply.choices[0]!.message.content).toBe(DEFAULT_CONTENT);
    expect(reply.usage).toMatchObject({
      prompt_tokens: 30,
      completion_tokens: 7,
      prompt_tokens_details: { cached_tokens: 12 },
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(sentTo("google", GEMINI, "generateContent"));
    expect(sent.headers.authorization).toStartWith("Bearer ya29.fake-");
    expect(sent.headers.authorization).not.toContain(account.json.private_key_id);
    expect(sent.body.contents).toEqual([{ role: "user", parts: [{ text: "hi" }] }]);
    await billed(before, quotaOf(30, 7, 12));
  });

  test("OpenAI chat stream on a Gemini model: streamGenerateContent?alt=sse, OpenAI chunks with usage, billed exactly", async () => {
    const before = await r.userRow();
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    const stream = await r.openai().chat.completions.create({
      model: GEMINI,
      messages: hi,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(DEFAULT_CONTENT);
    expect(usage).toMatchObject({ prompt_tokens: DEFAULT_PROMPT_TOKENS, completion_tokens: WORDS });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(sentTo("google", GEMINI, "streamGenerateContent"));
    expect(sent.search).toBe("?alt=sse");
    const log = await billed(before, quotaOf(DEFAULT_PROMPT_TOKENS, WORDS));
    expect(log.is_stream).toBe(1);
  });

  test("OpenAI chat on a Claude model: rawPredict with the Anthropic body, cache reads and writes billed exactly", async () => {
    vertex.queueBehavior({ promptTokens: 20, completionTokens: 5, cachedTokens: 6, cacheWriteTokens: 8 });
    const before = await r.userRow();
    const reply = await r.openai().chat.completions.create({ model: CLAUDE, messages: hi });
    expect(reply.choices[0]!.message.content).toBe(DEFAULT_CONTENT);
    expect(reply.usage).toMatchObject({
      prompt_tokens: 34,
      completion_tokens: 5,
      prompt_tokens_details: { cached_tokens: 6, cached_creation_tokens: 8 },
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(sentTo("anthropic", CLAUDE, "rawPredict"));
    expect(sent.body).toMatchObject({ anthropic_version: "vertex-2023-10-16", max_tokens: 4096 });
    expect(sent.body.model).toBeUndefined();
    await billed(before, quotaOf(34, 5, 6, 8));
  });

  test("OpenAI chat stream on a Claude model: streamRawPredict, OpenAI chunks, billed exactly", async () => {
    const before = await r.userRow();
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    const stream = await r.openai().chat.completions.create({
      model: CLAUDE,
      messages: hi,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(DEFAULT_CONTENT);
    expect(usage).toMatchObject({ prompt_tokens: DEFAULT_PROMPT_TOKENS, completion_tokens: WORDS });
    expect(vertex.requests.at(-1)!.path).toBe(sentTo("anthropic", CLAUDE, "streamRawPredict"));
    const log = await billed(before, quotaOf(DEFAULT_PROMPT_TOKENS, WORDS));
    expect(log.is_stream).toBe(1);
  });

  for (const model of [GEMINI, CLAUDE])
    test(`Gemini inbound (@google/genai) on ${model}: generateContent and its stream, billed exactly`, async () => {
      let before = await r.userRow();
      const reply = await genai().models.generateContent({ model, contents: "hi" });
      expect(reply.text).toBe(DEFAULT_CONTENT);
      expect(reply.usageMetadata).toMatchObject({
        promptTokenCount: DEFAULT_PROMPT_TOKENS,
        candidatesTokenCount: WORDS,
      });
      await billed(before, quotaOf(DEFAULT_PROMPT_TOKENS, WORDS));

      before = await r.userRow();
      let text = "";
      for await (const chunk of await genai().models.generateContentStream({ model, contents: "hi" }))
        text += chunk.text ?? "";
      expect(text).toBe(DEFAULT_CONTENT);
      const log = await billed(before, quotaOf(DEFAULT_PROMPT_TOKENS, WORDS));
      expect(JSON.parse(log.other)).toMatchObject({ inbound: "gemini" });
    });

  test("Anthropic inbound (@anthropic-ai/sdk) on a Claude model: messages and their stream, billed exactly", async () => {
    const anthropic = new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });
    let before = await r.userRow();
    const message = await anthropic.messages.create({ model: CLAUDE, max_tokens: 100, messages: hi });
    expect(message.content).toHaveLength(1);
    expect(message.content[0]).toMatchObject({ type: "text", text: DEFAULT_CONTENT });
    expect(message.usage).toMatchObject({ input_tokens: DEFAULT_PROMPT_TOKENS, output_tokens: WORDS });
    expect(vertex.requests.at(-1)!.body).toMatchObject({ anthropic_version: "vertex-2023-10-16", max_tokens: 100 });
    await billed(before, quotaOf(DEFAULT_PROMPT_TOKENS, WORDS));

    before = await r.userRow();
    const streamed = await anthropic.messages.stream({ model: CLAUDE, max_tokens: 100, messages: hi }).finalMessage();
    expect(streamed.content[0]).toMatchObject({ type: "text", text: DEFAULT_CONTENT });
    expect(vertex.requests.at(-1)!.path).toBe(sentTo("anthropic", CLAUDE, "streamRawPredict"));
    const log = await billed(before, quotaOf(DEFAULT_PROMPT_TOKENS, WORDS));
    expect(JSON.parse(log.other)).toMatchObject({ inbound: "anthropic" });
  });

  test("the token is minted once for many concurrent calls and reused after", async () => {
    const minted = tokens.mints;
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => r.openai().chat.completions.create({ model: GEMINI, messages: hi })),
    );
    expect(replies.every((reply) => reply.choices[0]!.message.content === DEFAULT_CONTENT)).toBe(true);
    expect(tokens.mints).toBe(minted);
    expect(minted).toBe(1);
  });

  test("the channel test goes through the token endpoint and Vertex", async () => {
    const reply = await r.s.root.get(`/api/channel/test/${channelId}`);
    expect(reply.body.success).toBe(true);
    expect(vertex.requests.at(-1)!.headers.authorization).toStartWith("Bearer ya29.fake-");
  });

  test("fetching the model list reads Model Garden's Google then Anthropic publisher models, page by page, with the minted token", async () => {
    const sent = vertex.requests.length;
    const reply = await r.s.root.get(`/api/channel/fetch_models/${channelId}`);
    expect(reply.body).toEqual({
      success: true,
      message: "",
      data: ["gemini-2.5-flash", "gemini-2.5-pro", "claude-sonnet-4-5"],
    });
    const asked = vertex.requests.slice(sent);
    expect(asked.map((q) => q.path)).toEqual([
      "/v1beta1/publishers/google/models",
      "/v1beta1/publishers/google/models",
      "/v1beta1/publishers/anthropic/models",
    ]);
    expect(asked.every((q) => tokens.issued(q.headers.authorization!.replace("Bearer ", "")))).toBe(true);
  });

  test("a malformed service-account JSON or an unknown region is refused at channel creation and edit, the key never echoed", async () => {
    const create = (fields: Record<string, unknown>) =>
      r.s.root.post("/api/channel/", { type: 41, name: "bad", models: GEMINI, group: "default", ...fields });
    const notJson = await create({ key: "sk-SECRET-not-json" });
    expect(notJson.body).toMatchObject({ success: false });
    expect(notJson.body.message).toContain("the key is not a service account's JSON key");
    expect(notJson.body.message).not.toContain("SECRET");
    const noEmail = await create({ key: JSON.stringify({ ...account.json, client_email: "" }) });
    expect(noEmail.body).toMatchObject({
      success: false,
      message: "the key is not a service account's JSON key: client_email missing",
    });
    const notRsa = await create({
      key: JSON.stringify({
        ...account.json,
        private_key: "-----BEGIN PRIVATE KEY-----\nSECRET\n-----END PRIVATE KEY-----",
      }),
    });
    expect(notRsa.body).toMatchObject({
      success: false,
      message: "the key is not a service account's JSON key: private_key could not be read as an RSA private key",
    });
    const region = await create({ key: account.key, other: "mars-north" });
    expect(region.body).toMatchObject({ success: false });
    expect(region.body.message).toContain('region "mars-north" is not a Vertex AI region');
    const stored = () =>
      r.s.ctx.db.k
        .selectFrom("channels")
        .select(["key", "other"])
        .where("id", "=", channelId)
        .executeTakeFirstOrThrow();
    const kept = await stored();
    const edit = await r.s.root.put("/api/channel/", { id: channelId, key: '{"private_key":"SECRET"}' });
    expect(edit.body.success).toBe(false);
    expect(edit.body.message).not.toContain("SECRET");
    const moved = await r.s.root.put("/api/channel/", { id: channelId, other: "nowhere" });
    expect(moved.body.success).toBe(false);
    expect(await stored()).toEqual(kept);
  });

  test("the token endpoint's refusal is a clear 502 upstream auth error and auto-disables the channel; nothing reaches Vertex", async () => {
    const stranger = await testServiceAccount(tokens.tokenUri, "stranger@other-project.iam.gserviceaccount.com");
    // Known by its e-mail, but the channel's key is another key pair: the signature does not verify.
    tokens.trust(stranger.json.client_email, account.publicKeyPem);
    await r.s.ctx.options.set("AutomaticDisableChannelEnabled", true);
    const model = "gemini-2.0-flash";
    await r.setPrices({ [model]: 1 });
    const id = await r.addChannel({ type: 41, key: stranger.key, other: "europe-west4", models: model }, vertex);
    const sent = vertex.requests.length;
    const before = await r.userRow();
    const error = await failure(r.openai().chat.completions.create({ model, messages: hi }));
    expect(error.status).toBe(502);
    expect(error.code).toBe("upstream_auth_error");
    expect(error.message).toContain(
      "the token endpoint refused the channel's service account (HTTP 400): invalid_grant: Invalid JWT Signature.",
    );
    expect(error.message).not.toContain("PRIVATE KEY");
    expect(vertex.requests.length).toBe(sent);
    expect((await r.userRow()).quota).toBe(before.quota);
    const row = await r.s.ctx.db.k
      .selectFrom("channels")
      .select("status")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(3);
    await r.s.ctx.options.set("AutomaticDisableChannelEnabled", false);
  });

  test("a stored channel whose region is unusable (written around the API) fails with a clear 502 naming the region", async () => {
    const model = "gemini-1.5-pro";
    await r.setPrices({ [model]: 1 });
    const id = await r.addChannel({ type: 41, key: account.key, models: model }, vertex);
    await r.s.ctx.db.k.updateTable("channels").set({ other: "moon base" }).where("id", "=", id).execute();
    await r.s.ctx.relay.routes.rebuild();
    const sent = vertex.requests.length;
    const error = await failure(r.openai().chat.completions.create({ model, messages: hi }));
    expect(error.status).toBe(502);
    expect(error.code).toBe("channel_misconfigured");
    expect(error.message).toContain('the channel\'s region "moon base" is not a Vertex AI region');
    expect(vertex.requests.length).toBe(sent);
  });
});
