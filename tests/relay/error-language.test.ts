import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startRelayEnv, type RelayEnv } from "./support";

/** Issue #22: relay errors are English as clients expect, Chinese when RelayErrorLanguage is zh; the shape stays. */
let r: RelayEnv;
beforeAll(async () => {
  r = await startRelayEnv("sqlite");
  await r.setPrices({ "test-chat": 1, "unserved-model": 1 });
  await r.addChannel({ models: "test-chat" });
});
afterAll(() => r.stop());

const BAD_KEY = `sk-${"x".repeat(48)}`;
const ask = (path: string, headers: Record<string, string>, body: unknown) =>
  fetch(`${r.s.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** One refusal in each dialect: its status and body. */
async function refusals() {
  const replies = {
    openaiKey: await ask("/v1/chat/completions", { authorization: `Bearer ${BAD_KEY}` }, {}),
    openaiChannel: await ask(
      "/v1/chat/completions",
      { authorization: `Bearer ${r.key}` },
      { model: "unserved-model", messages: [{ role: "user", content: "hi" }] },
    ),
    anthropicKey: await ask("/v1/messages", { "x-api-key": BAD_KEY }, {}),
    anthropicBody: await ask(
      "/v1/messages",
      { "x-api-key": r.key },
      { model: "test-chat", messages: [{ role: "user", content: "hi" }] },
    ),
    geminiKey: await ask("/v1beta/models/test-chat:generateContent", { "x-goog-api-key": BAD_KEY }, {}),
  };
  const out = {} as Record<keyof typeof replies, { status: number; body: any }>;
  for (const [name, reply] of Object.entries(replies) as [keyof typeof replies, Response][])
    out[name] = { status: reply.status, body: await reply.json() };
  return out;
}

/** The body with its message taken out: what must not change with the language. */
const shapeOf = (body: any) => JSON.parse(JSON.stringify(body).replace(/"message":"(?:[^"\\]|\\.)*"/g, '"message":""'));

describe("RelayErrorLanguage", () => {
  let english: Awaited<ReturnType<typeof refusals>>;

  test("English by default, in each dialect's own error shape", async () => {
    english = await refusals();
    expect(english.openaiKey.status).toBe(401);
    expect(english.openaiKey.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key" });
    expect(english.openaiKey.body.error.message).toStartWith("invalid API key (request id: ");
    expect(english.openaiChannel.body.error.message).toStartWith(
      "no available channel for model unserved-model in group default",
    );
    expect(english.anthropicKey.status).toBe(401);
    expect(english.anthropicKey.body).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    expect(english.anthropicKey.body.error.message).toStartWith("invalid API key");
    expect(english.anthropicBody.status).toBe(400);
    expect(english.anthropicBody.body.error.message).toStartWith("max_tokens: a number is required");
    expect(english.geminiKey.status).toBe(401);
    expect(english.geminiKey.body.error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" });
    expect(english.geminiKey.body.error.message).toStartWith("invalid API key");
  });

  test("only en or zh can be saved", async () => {
    const reply = await r.s.root.put("/api/option/", { key: "RelayErrorLanguage", value: "fr" });
    expect(reply.body.success).toBe(false);
    expect((await refusals()).openaiKey.body.error.message).toStartWith("invalid API key");
  });

  test("zh: the same refusals in Chinese from the server's catalog, statuses and shapes unchanged", async () => {
    const saved = await r.s.root.put("/api/option/", { key: "RelayErrorLanguage", value: "zh" });
    expect(saved.body.success).toBe(true);
    const chinese = await refusals();
    expect(chinese.openaiKey.body.error.message).toStartWith("无效的 API 密钥（请求 ID：");
    expect(chinese.openaiChannel.body.error.message).toStartWith("分组 default 下没有模型 unserved-model 的可用渠道");
    expect(chinese.anthropicKey.body.error.message).toStartWith("无效的 API 密钥");
    expect(chinese.anthropicBody.body.error.message).toStartWith("max_tokens：需要一个数字");
    expect(chinese.geminiKey.body.error.message).toStartWith("无效的 API 密钥");
    for (const name of Object.keys(english) as (keyof typeof english)[]) {
      expect(chinese[name].status).toBe(english[name].status);
      expect(shapeOf(chinese[name].body)).toEqual(shapeOf(english[name].body));
    }
    await r.s.root.put("/api/option/", { key: "RelayErrorLanguage", value: "en" });
    expect((await refusals()).geminiKey.body.error.message).toStartWith("invalid API key");
  });
});
