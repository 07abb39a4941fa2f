import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { WordMatcher } from "../../src/service/relay/sensitive/word-matcher";
import { DIALECTS } from "../support/databases";
import { failure, startRelayEnv, type RelayEnv } from "./support";

const MODEL = "sw-model";

describe("the word matcher (Aho–Corasick)", () => {
  test("finds every word case-insensitively, overlapping ones included, in any script", () => {
    const m = new WordMatcher(["he", "she", "hers", "敏感", "Bad Word"]);
    expect(m.has("ushers")).toBe(true);
    expect(m.has("USHERS")).toBe(true);
    expect(m.has("ush")).toBe(false);
    expect(m.has("这是敏感内容")).toBe(true);
    expect(m.mask("a BAD word: ushers")).toBe("a ********: u*****");
    expect(m.mask("clean")).toBe("clean");
    expect(new WordMatcher([]).has("anything")).toBe(false);
  });

  test("a dictionary too large for the dense automaton (thousands of Chinese words) is matched the same way, sparsely", () => {
    const words = Array.from({ length: 6000 }, (_, i) =>
      String.fromCharCode(0x4e00 + i, 0x4e00 + ((i * 7) % 6000), 0x5000 + i),
    );
    const m = new WordMatcher([...words, "he", "she", "hers"]);
    expect(m.has(`前缀${words[4321]}后缀`)).toBe(true);
    expect(m.has("没有")).toBe(false);
    expect(m.has("USHERS")).toBe(true);
    expect(m.mask(`a ${words[7]} b: ushers`)).toBe("a *** b: u*****");
  });
});

describe.each(DIALECTS)("sensitive words on the prompt on %s", (dialect) => {
  let r: RelayEnv;
  const setOptions = async (options: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(options)) {
      const reply = await r.s.root.put("/api/option/", { key, value });
      if (!reply.body.success) throw new Error(`${key}: ${reply.body.message}`);
    }
  };
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await r.setPrices({ [MODEL]: 1 });
    await r.addChannel({ models: MODEL });
    await setOptions({ SensitiveWords: "forbidden\n\n  敏感词  \n" });
  });
  afterAll(() => r.stop());

  const expectRefused = async (call: Promise<unknown>, seen: number) => {
    const refused = await failure(call);
    expect(refused.status).toBe(400);
    expect(refused.code).toBe("sensitive_words_detected");
    expect(refused.message).not.toContain(r.fake.url);
    expect(r.fake.requests.length).toBe(seen);
  };

  test("a listed word in a chat prompt (any case, any part) is refused with 400 sensitive_words_detected, never reaches the upstream, is not billed, and leaves an error log row", async () => {
    await setOptions({ ErrorLogEnabled: true });
    const before = await r.userRow();
    const seen = r.fake.requests.length;
    const chat = r.openai().chat.completions;
    await expectRefused(
      chat.create({ model: MODEL, messages: [{ role: "user", content: "say ForBidden now" }] }),
      seen,
    );
    await expectRefused(
      chat.create({
        model: MODEL,
        messages: [
          { role: "system", content: "be kind" },
          { role: "user", content: [{ type: "text", text: "一段敏感词内容" }] },
        ],
      }),
      seen,
    );
    const after = await r.userRow();
    expect(after.quota).toBe(before.quota);
    expect(after.used_quota).toBe(before.used_quota);
    await r.flushed();
    const rows = await r.s.ctx.db.k.selectFrom("logs").selectAll().where("type", "=", 5).execute();
    expect(rows.some((row) => JSON.parse(row.other).error_code === "sensitive_words_detected")).toBe(true);
    await setOptions({ ErrorLogEnabled: false });
  });

  test("every inbound dialect is checked: Responses, Anthropic Messages, Gemini", async () => {
    const seen = r.fake.requests.length;
    await expectRefused(
      r.openai().responses.create({ model: MODEL, instructions: "x FORBIDDEN y", input: "hi" }),
      seen,
    );
    const claude = new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });
    const refused = await claude.messages
      .create({
        model: MODEL,
        max_tokens: 16,
        system: [{ type: "text", text: "forbidden" }],
        messages: [{ role: "user", content: "hi" }],
      })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    const gemini = new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.s.url } });
    const refusedGemini = await gemini.models
      .generateContent({ model: MODEL, contents: [{ role: "user", parts: [{ text: "我的敏感词" }] }] })
      .catch((e) => e);
    expect(refusedGemini).toBeInstanceOf(ApiError);
    expect(refusedGemini.status).toBe(400);
    expect(r.fake.requests.length).toBe(seen);
  });

  test("a prompt without a listed word, or with the prompt check off, goes through", async () => {
    const chat = r.openai().chat.completions;
    await chat.create({ model: MODEL, messages: [{ role: "user", content: "a harmless prompt" }] });
    await setOptions({ CheckSensitiveOnPromptEnabled: false });
    await chat.create({ model: MODEL, messages: [{ role: "user", content: "forbidden" }] });
    await setOptions({ CheckSensitiveOnPromptEnabled: true, CheckSensitiveEnabled: false });
    await chat.create({ model: MODEL, messages: [{ role: "user", content: "forbidden" }] });
    await setOptions({ CheckSensitiveEnabled: true });
  });

  test("with StopOnSensitiveEnabled off the words are masked with asterisks before the upstream sees them", async () => {
    await setOptions({ StopOnSensitiveEnabled: false });
    await r.openai().chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "a FORBIDDEN word" }],
    });
    expect(r.fake.requests.at(-1)!.body.messages[0].content).toBe("a ********* word");
    const claude = new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });
    await claude.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: "敏感词!" }] });
    expect(JSON.stringify(r.fake.requests.at(-1)!.body)).toContain("***!");
    expect(JSON.stringify(r.fake.requests.at(-1)!.body)).not.toContain("敏感词");
    await setOptions({ StopOnSensitiveEnabled: true });
  });
});
