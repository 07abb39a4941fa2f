import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { DEFAULT_CONTENT, DEFAULT_PROMPT_TOKENS } from "../support/fake-upstream";
import { expectedQuota, startRelayEnv, TOKEN_QUOTA, USER_QUOTA, type RelayEnv } from "./support";

const WORDS = DEFAULT_CONTENT.split(" ").length;

describe.each(DIALECTS)("relay with the openai SDK on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await r.setPrices({ "test-chat": 2, "test-embed": 0.5 }, { "test-chat": 3 });
    await r.addChannel({ models: "test-chat,test-embed" });
  });
  afterAll(() => r.stop());

  test("non-stream chat answers with the upstream's reply and bills exactly from its usage", async () => {
    const before = await r.userRow();
    const reply = await r
      .openai()
      .chat.completions.create({ model: "test-chat", messages: [{ role: "user", content: "hi" }] });
    expect(reply.choices[0]!.message.content).toBe(DEFAULT_CONTENT);
    expect(reply.usage).toMatchObject({ prompt_tokens: DEFAULT_PROMPT_TOKENS, completion_tokens: WORDS });
    const quota = expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ratio: 2, completionRatio: 3 });
    const after = await r.userRow();
    expect(before.quota - after.quota).toBe(quota);
    expect(after.used_quota - before.used_quota).toBe(quota);
    expect(after.request_count - before.request_count).toBe(1);
    const log = (await r.consumeLogs()).at(-1);
    expect(log).toMatchObject({
      model_name: "test-chat",
      quota,
      prompt_tokens: DEFAULT_PROMPT_TOKENS,
      completion_tokens: WORDS,
      is_stream: 0,
    });
    const other = JSON.parse(log.other);
    expect(other).toMatchObject({
      model_ratio: 2,
      completion_ratio: 3,
      group_ratio: 1,
      model_price: -1,
      usage_source: "upstream",
    });
    expect(other.admin_info.use_channel).toHaveLength(1);
  });

  test("stream chat passes the chunks through, injects include_usage upstream and strips the usage chunk", async () => {
    const stream = await r
      .openai()
      .chat.completions.create({ model: "test-chat", messages: [{ role: "user", content: "hi" }], stream: true });
    let text = "";
    let sawUsage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) sawUsage = true;
    }
    expect(text).toBe(DEFAULT_CONTENT);
    expect(sawUsage).toBe(false);
    expect(r.fake.requests.at(-1)!.body.stream_options).toEqual({ include_usage: true });
    const log = (await r.consumeLogs()).at(-1);
    expect(log).toMatchObject({ is_stream: 1, prompt_tokens: DEFAULT_PROMPT_TOKENS, completion_tokens: WORDS });
    expect(log.quota).toBe(
      expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ratio: 2, completionRatio: 3 }),
    );
  });

  test("every reply names its request id (UTC time to the second, then 12 letters or digits), and its log row keeps it", async () => {
    const { response } = await r
      .openai()
      .chat.completions.create({ model: "test-chat", messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    const id = response.headers.get("x-tollgate-request-id")!;
    expect(id).toMatch(/^\d{14}[0-9A-Za-z]{12}$/);
    const [, y, mo, d, h, mi, sec] = id.match(/^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)/)!;
    expect(Math.abs(Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +sec!) - Date.now())).toBeLessThan(60_000);
    expect((await r.consumeLogs()).at(-1).request_id).toBe(id);
  });

  test("a stream keeps the usage chunk when the client asked for it", async () => {
    const stream = await r.openai().chat.completions.create({
      model: "test-chat",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: any;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toMatchObject({ prompt_tokens: DEFAULT_PROMPT_TOKENS, completion_tokens: WORDS });
  });

  test("embeddings are relayed and billed on prompt tokens", async () => {
    const before = await r.tokenRow();
    const reply = await r.openai().embeddings.create({ model: "test-embed", input: "hello world" });
    expect(reply.data[0]!.embedding.length).toBeGreaterThan(0);
    const prompt = reply.usage.prompt_tokens;
    const after = await r.tokenRow();
    expect(before.remain_quota - after.remain_quota).toBe(expectedQuota({ prompt, completion: 0, ratio: 0.5 }));
  });

  test("models lists only what this key may use, and retrieves one", async () => {
    const list = await r.openai().models.list();
    expect(list.data.map((m) => m.id).sort()).toEqual(["test-chat", "test-embed"]);
    expect((await r.openai().models.retrieve("test-chat")).id).toBe("test-chat");
    const limited = await r.newKey({ model_limits_enabled: true, model_limits: "test-embed" });
    expect((await r.openai(limited.key).models.list()).data.map((m) => m.id)).toEqual(["test-embed"]);
  });

  test("token and user balances move together and never below what was reserved", async () => {
    const user = await r.userRow();
    const token = await r.tokenRow();
    expect(USER_QUOTA - user.quota).toBe(user.used_quota);
    expect(TOKEN_QUOTA - token.remain_quota).toBe(token.used_quota);
  });
});
