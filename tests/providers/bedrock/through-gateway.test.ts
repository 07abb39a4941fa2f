import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectedQuota, failure, startRelayEnv, type RelayEnv } from "../../relay/support";
import { DIALECTS } from "../../support/databases";
import { FAKE_BEDROCK_TEXT, FAKE_BEDROCK_USAGE, startFakeBedrock, type FakeBedrock } from "../../support/fake-bedrock";
import type { FakeUpstream } from "../../support/fake-upstream";

const AK = "AKIAFAKEBEDROCK00001";
const SK = "bedrock/secret+Key0123456789abcdefEXAMPLE";
const TOKEN = "FwoGZXIvYXdzEFAKE-session-token";
const REGION = "us-west-2";
/** An Anthropic API name: the provider maps it to anthropic.claude-3-haiku-20240307-v1:0 and invokes it. */
const CLAUDE = "claude-3-haiku-20240307";
const CLAUDE_PATH = "/model/anthropic.claude-3-haiku-20240307-v1%3A0";
/** Any other model goes through Converse. */
const MISTRAL = "mistral.mistral-large-2402-v1:0";
const MISTRAL_PATH = "/model/mistral.mistral-large-2402-v1%3A0";
const PRICES = { ratio: 2, completionRatio: 3, cacheRatio: 0.1 };
const U = FAKE_BEDROCK_USAGE;
const PROMPT = U.input + U.cacheRead + U.cacheWrite;
const QUOTA = expectedQuota({
  prompt: PROMPT,
  completion: U.output,
  cached: U.cacheRead,
  written: U.cacheWrite,
  ...PRICES,
});
const question = [{ role: "user" as const, content: "hi" }];

describe.each(DIALECTS)("AWS Bedrock channels (type 33) on %s", (dialect) => {
  let r: RelayEnv;
  let bedrock: FakeBedrock;
  let channelId: number;
  const via = (fake: { url: string }) => ({ url: fake.url }) as FakeUpstream;
  const anthropic = () => new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });
  const billed = async (before: { quota: number }, stream: boolean) => {
    expect(before.quota - (await r.userRow()).quota).toBe(QUOTA);
    const log = (await r.consumeLogs()).at(-1);
    expect(log).toMatchObject({
      prompt_tokens: PROMPT,
      completion_tokens: U.output,
      quota: QUOTA,
      is_stream: stream ? 1 : 0,
    });
    expect(JSON.parse(log.other)).toMatchObject({ family: "bedrock", usage_source: "upstream" });
  };

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    bedrock = startFakeBedrock({ accessKeyId: AK, secretAccessKey: SK, sessionToken: TOKEN, region: REGION });
    const models = [CLAUDE, MISTRAL, "claude-wrong-key", "claude-wrong-secret", "claude-mars"];
    await r.setPrices(
      Object.fromEntries(models.map((m) => [m, PRICES.ratio])),
      Object.fromEntries(models.map((m) => [m, PRICES.completionRatio])),
    );
    await r.s.root.put("/api/option/", {
      key: "CacheRatio",
      value: JSON.stringify({
        ...r.s.ctx.options.json<object>("CacheRatio"),
        [CLAUDE]: PRICES.cacheRatio,
        [MISTRAL]: PRICES.cacheRatio,
      }),
    });
    channelId = await r.addChannel(
      { type: 33, key: `${AK}|${SK}|${TOKEN}`, other: REGION, models: `${CLAUDE},${MISTRAL}` },
      via(bedrock),
    );
  });
  afterAll(async () => {
    await r.stop();
    await bedrock.stop();
  });

  test("OpenAI chat to a Claude model goes through invoke with Bedrock's Messages body, signed; cache tokens billed exactly", async () => {
    const before = await r.userRow();
    const reply = await r.openai().chat.completions.create({ model: CLAUDE, messages: question, max_tokens: 50 });
    expect(reply.choices[0]!.message.content).toBe(FAKE_BEDROCK_TEXT);
    expect(reply.usage).toMatchObject({
      prompt_tokens: PROMPT,
      completion_tokens: U.output,
      prompt_tokens_details: { cached_tokens: U.cacheRead },
    });
    const sent = bedrock.requests.at(-1)!;
    expect(sent.path).toBe(`${CLAUDE_PATH}/invoke`);
    expect(sent.body).toEqual({
      anthropic_version: "bedrock-2023-05-31",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(sent.headers.authorization).toContain(`Credential=${AK}/`);
    expect(sent.headers["x-amz-security-token"]).toBe(TOKEN);
    await billed(before, false);
  });

  test("a streamed OpenAI chat to Claude reads invoke-with-response-stream's binary events; billed from its usage", async () => {
    const before = await r.userRow();
    const stream = r.openai().chat.completions.stream({
      model: CLAUDE,
      messages: question,
      stream: true,
      stream_options: { include_usage: true },
    });
    const done = await stream.finalChatCompletion();
    expect(done.choices[0]!.message.content).toBe(FAKE_BEDROCK_TEXT);
    expect(done.choices[0]!.finish_reason).toBe("stop");
    expect(done.usage).toMatchObject({ prompt_tokens: PROMPT, completion_tokens: U.output });
    expect(bedrock.requests.at(-1)!.path).toBe(`${CLAUDE_PATH}/invoke-with-response-stream`);
    await billed(before, true);
  });

  test("OpenAI chat to a non-Claude model goes through converse (messages, system, inferenceConfig), stream and not", async () => {
    let before = await r.userRow();
    const reply = await r.openai().chat.completions.create({
      model: MISTRAL,
      messages: [{ role: "system", content: "Be brief." }, ...question],
      max_tokens: 64,
      temperature: 0.2,
      stop: ["END"],
    });
    expect(reply.choices[0]!.message.content).toBe(FAKE_BEDROCK_TEXT);
    const sent = bedrock.requests.at(-1)!;
    expect(sent.path).toBe(`${MISTRAL_PATH}/converse`);
    expect(sent.body).toEqual({
      messages: [{ role: "user", content: [{ text: "hi" }] }],
      system: [{ text: "Be brief." }],
      inferenceConfig: { maxTokens: 64, temperature: 0.2, stopSequences: ["END"] },
    });
    await billed(before, false);

    before = await r.userRow();
    const done = await r
      .openai()
      .chat.completions.stream({
        model: MISTRAL,
        messages: question,
        stream: true,
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    expect(done.choices[0]!.message.content).toBe(FAKE_BEDROCK_TEXT);
    expect(done.usage).toMatchObject({ prompt_tokens: PROMPT, completion_tokens: U.output });
    expect(bedrock.requests.at(-1)!.path).toBe(`${MISTRAL_PATH}/converse-stream`);
    await billed(before, true);
  });

  test("Anthropic Messages (@anthropic-ai/sdk) reach Claude through invoke and other models through converse, stream and not", async () => {
    for (const [model, path] of [
      [CLAUDE, CLAUDE_PATH],
      [MISTRAL, MISTRAL_PATH],
    ] as const) {
      let before = await r.userRow();
      const message = await anthropic().messages.create({ model, max_tokens: 40, messages: question });
      expect(message.content).toEqual([{ type: "text", text: FAKE_BEDROCK_TEXT } as any]);
      expect(message.usage).toMatchObject({ output_tokens: U.output, cache_read_input_tokens: U.cacheRead });
      expect(bedrock.requests.at(-1)!.path).toBe(`${path}/${model === CLAUDE ? "invoke" : "converse"}`);
      await billed(before, false);

      before = await r.userRow();
      const streamed = await anthropic().messages.stream({ model, max_tokens: 40, messages: question }).finalMessage();
      expect(streamed.content.map((b) => (b.type === "text" ? b.text : ""))).toEqual([FAKE_BEDROCK_TEXT]);
      expect(streamed.stop_reason).toBe("end_turn");
      expect(bedrock.requests.at(-1)!.path).toBe(
        `${path}/${model === CLAUDE ? "invoke-with-response-stream" : "converse-stream"}`,
      );
      await billed(before, true);
    }
  });

  test("Gemini (@google/genai) and Responses (openai SDK) calls reach Bedrock through the pivot, stream and not, billed exactly", async () => {
    const gemini = new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.s.url } });
    for (const [model, path] of [
      [CLAUDE, `${CLAUDE_PATH}/invoke`],
      [MISTRAL, `${MISTRAL_PATH}/converse`],
    ] as const) {
      let before = await r.userRow();
      const reply = await gemini.models.generateContent({ model, contents: "hi" });
      expect(reply.text).toBe(FAKE_BEDROCK_TEXT);
      expect(reply.usageMetadata).toMatchObject({
        cachedContentTokenCount: U.cacheRead,
        candidatesTokenCount: U.output,
      });
      expect(bedrock.requests.at(-1)!.path).toBe(path);
      await billed(before, false);

      before = await r.userRow();
      let text = "";
      for await (const chunk of await gemini.models.generateContentStream({ model, contents: "hi" }))
        text += chunk.text ?? "";
      expect(text).toBe(FAKE_BEDROCK_TEXT);
      expect(bedrock.requests.at(-1)!.path).toBe(
        `${path}${path.endsWith("invoke") ? "-with-response-stream" : "-stream"}`,
      );
      await billed(before, true);

      before = await r.userRow();
      const response = await r.openai().responses.create({ model, input: "hi" });
      expect(response.output_text).toBe(FAKE_BEDROCK_TEXT);
      expect(response.usage).toMatchObject({ input_tokens: PROMPT, output_tokens: U.output });
      await billed(before, false);

      before = await r.userRow();
      const events: string[] = [];
      for await (const event of await r.openai().responses.create({ model, input: "hi", stream: true }))
        events.push(event.type);
      expect(events.at(-1)).toBe("response.completed");
      await billed(before, true);
    }
  });

  test("the channel test (GET /api/channel/test/{id}) signs and invokes its first model; a wrong secret fails it clearly", async () => {
    const reply = await r.s.root.get(`/api/channel/test/${channelId}`);
    expect(reply.body.success).toBe(true);
    expect(bedrock.requests.at(-1)).toMatchObject({ path: `${CLAUDE_PATH}/invoke`, body: { max_tokens: 16 } });
    const wrong = await r.addChannel(
      { type: 33, key: `${AK}|not-the-secret|${TOKEN}`, other: REGION, models: CLAUDE, auto_ban: 0 },
      via(bedrock),
    );
    const failed = await r.s.root.get(`/api/channel/test/${wrong}`);
    expect(failed.body.success).toBe(false);
    expect(failed.body.message).toContain("The request signature we calculated does not match");
    expect(failed.body.message).not.toContain("not-the-secret");
    await r.s.root.put("/api/channel/", { id: wrong, status: 2 });
    await r.s.ctx.relay.routes.rebuild();
  });

  test("wrong AWS credentials: the upstream's 403 is a clear upstream_auth_error, the channel is auto-disabled, keys never echoed", async () => {
    await r.s.ctx.options.set("AutomaticDisableChannelEnabled", true);
    for (const [model, key, told] of [
      [
        "claude-wrong-key",
        `AKIAWRONGKEY00000000|${SK}|${TOKEN}`,
        "The security token included in the request is invalid",
      ],
      [
        "claude-wrong-secret",
        `${AK}|wrong-secret-value-123|${TOKEN}`,
        "The request signature we calculated does not match",
      ],
    ] as const) {
      const id = await r.addChannel(
        { type: 33, key, other: REGION, models: model, model_mapping: JSON.stringify({ [model]: CLAUDE }) },
        via(bedrock),
      );
      const error = await failure(r.openai().chat.completions.create({ model, messages: question }));
      expect(error.status).toBe(502);
      expect(error.code).toBe("upstream_auth_error");
      expect(error.message).toContain("refused this channel's credentials (HTTP 403)");
      expect(error.message).toContain(told);
      for (const secret of key.split("|")) expect(JSON.stringify(error.error)).not.toContain(secret);
      const row = await r.s.ctx.db.k.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      expect(row.status).toBe(3);
      expect(row.other_info).not.toContain(key.split("|")[1]!);
    }
    await r.s.ctx.options.set("AutomaticDisableChannelEnabled", false);
  });

  test("a region that is not an AWS region, or none, is a clear error naming the setting; nothing is sent", async () => {
    const id = await r.addChannel(
      { type: 33, key: `${AK}|${SK}`, other: "mars-1", models: "claude-mars" },
      via(bedrock),
    );
    const sent = bedrock.requests.length;
    const error = await failure(r.openai().chat.completions.create({ model: "claude-mars", messages: question }));
    expect(error.status).toBe(502);
    expect(error.message).toContain('the AWS channel\'s region "mars-1" is not an AWS region (e.g. us-east-1)');
    expect(JSON.stringify(error.error)).not.toContain(SK);
    const blanked = await r.s.root.put("/api/channel/", { id, other: "" });
    expect(blanked.body).toMatchObject({ success: false });
    expect(blanked.body.message).toContain("is required for channel type");
    // A channel stored before that rule, with no region: the call names the missing setting.
    await r.s.ctx.db.k.updateTable("channels").set({ other: "" }).where("id", "=", id).execute();
    await r.s.ctx.relay.routes.rebuild();
    const none = await failure(r.openai().chat.completions.create({ model: "claude-mars", messages: question }));
    expect(none.message).toContain("the AWS channel has no region");
    expect(bedrock.requests.length).toBe(sent);
  });
});
