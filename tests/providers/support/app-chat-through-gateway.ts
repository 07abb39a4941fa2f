import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectedQuota, failure, startRelayEnv, type RelayEnv } from "../../relay/support";
import { DIALECTS } from "../../support/databases";
import type { LoopbackFake, SeenRequest } from "../../support/loopback-fake";

/** A family answering chat through its own dialect, as the gateway tests drive it. */
export interface ChatFamily {
  name: string;
  type: number;
  /** The channel's `other` (a bot id, ...), "" for none. */
  other: string;
  start(key: string): LoopbackFake;
  answer: string;
  usage: { prompt: number; completion: number };
  /** Apps have their own tools and refuse the client's; a model API takes them. */
  refusesTools: boolean;
  /**
   * The upstream request for the conversation [system "Be brief.", user "hi", assistant "hello", user "and you?"];
   * with `probe`, for the channel test's lone "hi".
   */
  expectConversation(seen: SeenRequest, stream: boolean, probe?: boolean): void;
}

const MODEL = "family-chat-model";
const PRICES = { ratio: 2, completionRatio: 3 };
const KEY = "family-upstream-key-1234";
const conversation = [
  { role: "system" as const, content: "Be brief." },
  { role: "user" as const, content: "hi" },
  { role: "assistant" as const, content: "hello" },
  { role: "user" as const, content: "and you?" },
];

/** Every inbound dialect's official client through a family's channel, stream and not, billed exactly. */
export function describeChatThroughGateway(f: ChatFamily) {
  describe.each(DIALECTS)(`${f.name} channels behind every inbound dialect on %s`, (dialect) => {
    let r: RelayEnv;
    let upstream: LoopbackFake;
    let channelId: number;
    const quota = expectedQuota({ prompt: f.usage.prompt, completion: f.usage.completion, ...PRICES });
    const anthropic = () => new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });
    const genai = () => new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.s.url } });
    const expectBilled = async (before: { quota: number }, stream: boolean, inbound?: string) => {
      expect(before.quota - (await r.userRow()).quota).toBe(quota);
      const log = (await r.consumeLogs()).at(-1);
      expect(log).toMatchObject({
        model_name: MODEL,
        prompt_tokens: f.usage.prompt,
        completion_tokens: f.usage.completion,
        quota,
        is_stream: stream ? 1 : 0,
      });
      expect(JSON.parse(log.other)).toMatchObject({ usage_source: "upstream", ...(inbound && { inbound }) });
    };

    beforeAll(async () => {
      r = await startRelayEnv(dialect);
      await r.setPrices({ [MODEL]: PRICES.ratio }, { [MODEL]: PRICES.completionRatio });
      upstream = f.start(KEY);
      channelId = await r.addChannel({ type: f.type, key: KEY, models: MODEL, other: f.other }, upstream.asFake());
    });
    afterAll(async () => {
      await r.stop();
      await upstream.stop();
    });

    test("OpenAI chat, whole reply: the conversation in the family's shape, the answer and usage back, billed exactly", async () => {
      const before = await r.userRow();
      const reply = await r.openai().chat.completions.create({ model: MODEL, messages: conversation });
      f.expectConversation(upstream.requests.at(-1)!, false);
      expect(reply.object).toBe("chat.completion");
      expect(reply.choices[0]).toMatchObject({
        message: { role: "assistant", content: f.answer },
        finish_reason: "stop",
      });
      expect(reply.usage).toMatchObject({ prompt_tokens: f.usage.prompt, completion_tokens: f.usage.completion });
      await expectBilled(before, false);
    });

    test("OpenAI chat, streamed: chunks of the answer, a usage chunk when asked, billed exactly", async () => {
      const before = await r.userRow();
      const stream = await r.openai().chat.completions.create({
        model: MODEL,
        messages: conversation,
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = "";
      let usage: any;
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      f.expectConversation(upstream.requests.at(-1)!, true);
      expect(text).toBe(f.answer);
      expect(finish).toBe("stop");
      expect(usage).toMatchObject({ prompt_tokens: f.usage.prompt, completion_tokens: f.usage.completion });
      await expectBilled(before, true);
    });

    test("Anthropic Messages, whole and streamed: the answer in Claude's shape, billed exactly", async () => {
      const ask = { model: MODEL, max_tokens: 100, system: "Be brief.", messages: conversation.slice(1) };
      let before = await r.userRow();
      const message = await anthropic().messages.create(ask);
      f.expectConversation(upstream.requests.at(-1)!, false);
      expect(message.content).toMatchObject([{ type: "text", text: f.answer }]);
      expect(message.usage).toMatchObject({ input_tokens: f.usage.prompt, output_tokens: f.usage.completion });
      await expectBilled(before, false);

      before = await r.userRow();
      let text = "";
      for await (const event of anthropic().messages.stream(ask))
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
      expect(text).toBe(f.answer);
      await expectBilled(before, true);
    });

    test("OpenAI Responses, whole and streamed: the conversation in the family's shape, the answer back, billed exactly", async () => {
      const ask = { model: MODEL, instructions: "Be brief.", input: conversation.slice(1) };
      let before = await r.userRow();
      const reply = await r.openai().responses.create(ask);
      f.expectConversation(upstream.requests.at(-1)!, false);
      expect(reply.output_text).toBe(f.answer);
      expect(reply.usage).toMatchObject({ input_tokens: f.usage.prompt, output_tokens: f.usage.completion });
      await expectBilled(before, false, "responses");

      before = await r.userRow();
      let text = "";
      let completed: any;
      for await (const event of await r.openai().responses.create({ ...ask, stream: true })) {
        if (event.type === "response.output_text.delta") text += event.delta;
        if (event.type === "response.completed") completed = event.response;
      }
      f.expectConversation(upstream.requests.at(-1)!, true);
      expect(text).toBe(f.answer);
      expect(completed.usage).toMatchObject({ input_tokens: f.usage.prompt, output_tokens: f.usage.completion });
      await expectBilled(before, true, "responses");
    });

    test("Gemini generateContent, whole and streamed (@google/genai): the answer in Gemini's shape, billed exactly", async () => {
      const ask = {
        model: MODEL,
        contents: conversation
          .slice(1)
          .map((m) => ({ role: m.role === "assistant" ? "model" : "user", parts: [{ text: m.content }] })),
        config: { systemInstruction: "Be brief." },
      };
      let before = await r.userRow();
      const reply = await genai().models.generateContent(ask);
      f.expectConversation(upstream.requests.at(-1)!, false);
      expect(reply.text).toBe(f.answer);
      expect(reply.usageMetadata).toMatchObject({
        promptTokenCount: f.usage.prompt,
        candidatesTokenCount: f.usage.completion,
      });
      await expectBilled(before, false, "gemini");

      before = await r.userRow();
      let text = "";
      for await (const chunk of await genai().models.generateContentStream(ask)) text += chunk.text ?? "";
      f.expectConversation(upstream.requests.at(-1)!, true);
      expect(text).toBe(f.answer);
      await expectBilled(before, true, "gemini");
    });

    test("the channel test (GET /api/channel/test/{id}) speaks the family's API and succeeds", async () => {
      const reply = await r.s.root.get(`/api/channel/test/${channelId}`);
      expect(reply.body.success).toBe(true);
      f.expectConversation(upstream.requests.at(-1)!, false, true);
    });

    // Defined only for the families that refuse tools (rather than skipped for the others).
    if (f.refusesTools)
      test("tools are refused with a clear 400 naming them, and nothing is sent upstream or billed", async () => {
        const sent = upstream.requests.length;
        const before = await r.userRow();
        const error = await failure(
          r.openai().chat.completions.create({
            model: MODEL,
            messages: conversation,
            tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
          }),
        );
        expect(error.status).toBe(400);
        expect(error.message).toContain("tools are not supported");
        expect(upstream.requests.length).toBe(sent);
        expect((await r.userRow()).quota).toBe(before.quota);
      });

    test("a refused key is a clear upstream credentials error that never echoes the key", async () => {
      const wrong = "wrong-family-key-98765";
      const id = await r.addChannel(
        { type: f.type, key: wrong, models: "other-model", other: f.other },
        upstream.asFake(),
      );
      await r.setPrices({ "other-model": 1 });
      const error = await failure(r.openai().chat.completions.create({ model: "other-model", messages: conversation }));
      expect(error.status).toBe(502);
      expect(error.code).toBe("upstream_auth_error");
      expect(error.message).not.toContain(wrong);
      expect(upstream.requests.at(-1)!.headers.authorization).toContain(`Bearer ${wrong}`);
      expect(id).toBeGreaterThan(0);
    });
  });
}
