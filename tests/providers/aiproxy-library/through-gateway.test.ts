import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GoogleGenAI } from "@google/genai";
import { expectedQuota, failure, startRelayEnv, type RelayEnv } from "../../relay/support";
import { DIALECTS } from "../../support/databases";
import { LIBRARY_ANSWER, LIBRARY_DOCUMENT, startFakeAiproxyLibrary } from "../../support/fake-aiproxy-library";
import type { LoopbackFake } from "../../support/loopback-fake";

const KEY = "aiproxy-library-key-777";
const LIBRARY = "123e4567-e89b-12d3-a456-426614174000";
const MODEL = "library-model";
const answer = `${LIBRARY_ANSWER.join("")}\n\nSources:\n- [${LIBRARY_DOCUMENT.title}](${LIBRARY_DOCUMENT.url})`;
const messages = [
  { role: "user" as const, content: "Can I?" },
  { role: "assistant" as const, content: "Which?" },
  { role: "user" as const, content: "The reset." },
];

describe.each(DIALECTS)("AIProxy Library (knowledge base) channels on %s", (dialect) => {
  let r: RelayEnv;
  let upstream: LoopbackFake;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await r.setPrices({ [MODEL]: 2, "wrong-library": 1 });
    upstream = startFakeAiproxyLibrary(KEY, LIBRARY);
    await r.addChannel({ type: 21, key: KEY, models: MODEL, other: LIBRARY }, upstream.asFake());
  });
  afterAll(async () => {
    await r.stop();
    await upstream.stop();
  });

  /** The library reports no usage: the call is billed from the counted prompt and answer, as the log says. */
  const expectCounted = async (before: { quota: number }) => {
    const log = (await r.consumeLogs()).at(-1);
    expect(JSON.parse(log.other)).toMatchObject({ usage_source: "estimated" });
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeGreaterThan(0);
    const quota = expectedQuota({ prompt: log.prompt_tokens, completion: log.completion_tokens, ratio: 2 });
    expect(log.quota).toBe(quota);
    expect(before.quota - (await r.userRow()).quota).toBe(quota);
  };

  test("whole reply: the question with the earlier turns asked of the library named by the channel; answer and sources back", async () => {
    const before = await r.userRow();
    const reply = await r.openai().chat.completions.create({ model: MODEL, messages });
    expect(upstream.requests.at(-1)).toMatchObject({
      path: "/api/library/ask",
      body: {
        model: MODEL,
        libraryId: LIBRARY,
        stream: false,
        query: "user: Can I?\n\nassistant: Which?\n\nuser: The reset.",
      },
    });
    expect(reply.choices[0]!.message.content).toBe(answer);
    await expectCounted(before);
  });

  test("streamed: the answer's chunks, the sources with the last, [DONE]; billed by counting", async () => {
    const before = await r.userRow();
    let text = "";
    for await (const chunk of await r.openai().chat.completions.create({ model: MODEL, messages, stream: true }))
      text += chunk.choices[0]?.delta?.content ?? "";
    expect(upstream.requests.at(-1)!.body.stream).toBe(true);
    expect(text).toBe(answer);
    await expectCounted(before);
  });

  test("Anthropic Messages, Responses and Gemini clients, whole and streamed: the same question, the answer back, billed by counting", async () => {
    const question = "user: Can I?\n\nassistant: Which?\n\nuser: The reset.";
    const anthropic = new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });
    const genai = new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.s.url } });
    const contents = messages.map((m) => ({
      role: m.role === "assistant" ? "model" : "user",
      parts: [{ text: m.content }],
    }));
    const clients: [string, () => Promise<string>][] = [
      [
        "anthropic",
        async () => {
          const reply = await anthropic.messages.create({ model: MODEL, max_tokens: 100, messages });
          return reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
        },
      ],
      [
        "anthropic stream",
        async () => await anthropic.messages.stream({ model: MODEL, max_tokens: 100, messages }).finalText(),
      ],
      ["responses", async () => (await r.openai().responses.create({ model: MODEL, input: messages })).output_text],
      [
        "responses stream",
        async () => {
          let text = "";
          for await (const e of await r.openai().responses.create({ model: MODEL, input: messages, stream: true }))
            if (e.type === "response.output_text.delta") text += e.delta;
          return text;
        },
      ],
      ["gemini", async () => (await genai.models.generateContent({ model: MODEL, contents })).text ?? ""],
      [
        "gemini stream",
        async () => {
          let text = "";
          for await (const chunk of await genai.models.generateContentStream({ model: MODEL, contents }))
            text += chunk.text ?? "";
          return text;
        },
      ],
    ];
    for (const [name, ask] of clients) {
      const before = await r.userRow();
      expect({ name, text: await ask() }).toEqual({ name, text: answer });
      expect({ name, query: upstream.requests.at(-1)!.body.query }).toEqual({ name, query: question });
      await expectCounted(before);
    }
  });

  test("a library the upstream does not know is a clear error; nothing billed", async () => {
    await r.addChannel({ type: 21, key: KEY, models: "wrong-library", other: "no-such-library" }, upstream.asFake());
    const before = await r.userRow();
    const error = await failure(r.openai().chat.completions.create({ model: "wrong-library", messages }));
    expect(error.status).toBe(502);
    expect(error.message).toContain("library not found");
    expect((await r.userRow()).quota).toBe(before.quota);
  });
});
