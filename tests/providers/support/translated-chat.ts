import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { DIALECTS } from "../../support/databases";
import { DEFAULT_CONTENT, FAKE_LEAKED_KEY, type FakeUpstream, type RecordedRequest } from "../../support/fake-upstream";
import { expectedQuota, failure, postStream, startRelayEnv, waitFor, type RelayEnv } from "../../relay/support";

const _WORDS = DEFAULT_CONTENT.split(" ").length;
const hi = [{ role: "user" as const, content: "hi" }];

export interface Family {
  name: string;
  type: number;
  /** What the client asks for, and what the channel maps it to. */
  model: string;
  upstreamModel: string;
  key: string;
  start(key: string): FakeUpstream;
  ratio: number;
  /** The model's cache ratio (CacheRatio) in the test's prices. */
  cacheRatio: number;
  completionRatio: number;
  /** The client's prompt tokens for `reported` cached tokens: Claude's input_tokens leave the cache out. */
  promptWithCache(input: number, cached: number): number;
  /** The upstream request: authenticated with the family's own header, at the family's own address. */
  expectCall(request: RecordedRequest, f: Family, stream: boolean): void;
  /** The upstream body for the rich request in `the request is translated`. */
  richBody(f: Family): unknown;
  /** The upstream's max-tokens field, and what it holds when the client sets none. */
  maxTokensOf(body: any): number | undefined;
  defaultMaxTokens: number | undefined;
}

/** An OpenAI chat client's whole conversation with a family that speaks its own dialect, on every database. */
export function describeTranslatedChat(f: Family) {
  describe.each(DIALECTS)(`${f.name} channels behind OpenAI chat on %s`, (dialect) => {
    let r: RelayEnv;
    let upstream: FakeUpstream;
    let channelId: number;
    const fake = () => upstream;
    beforeAll(async () => {
      r = await startRelayEnv(dialect);
      await r.setPrices({ [f.model]: f.ratio }, { [f.model]: f.completionRatio });
      await r.s.root.put("/api/option/", {
        key: "CacheRatio",
        value: JSON.stringify({ ...r.s.ctx.options.json<object>("CacheRatio"), [f.model]: f.cacheRatio }),
      });
      upstream = f.start(f.key);
      channelId = await r.addChannel(
        { type: f.type, key: f.key, models: f.model, model_mapping: JSON.stringify({ [f.model]: f.upstreamModel }) },
        upstream,
      );
    });
    afterAll(async () => {
      await r.stop();
      await upstream.stop();
    });

    describe(`through the ${f.name} channel type`, () => {
      const quotaOf = (prompt: number, completion: number, cached = 0) =>
        expectedQuota({
          prompt,
          completion,
          cached,
          ratio: f.ratio,
          completionRatio: f.completionRatio,
          cacheRatio: f.cacheRatio,
        });

      test("the request is translated: system, turns, images, max_tokens, temperature, top_p, stop", async () => {
        await r.openai().chat.completions.create({
          model: f.model,
          messages: [
            { role: "system", content: "Be brief." },
            { role: "user", content: "hi" },
            { role: "assistant", content: "hello" },
            { role: "developer", content: "Answer in English." },
            {
              role: "user",
              content: [
                { type: "text", text: "what is this?" },
                { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
              ],
            },
          ],
          max_tokens: 300,
          temperature: 0.3,
          top_p: 0.9,
          stop: "END",
        });
        const request = fake().requests.at(-1)!;
        f.expectCall(request, f, false);
        expect(request.body).toEqual(f.richBody(f));
      });

      test("without max_tokens the upstream gets the family's default; max_completion_tokens wins over max_tokens", async () => {
        await r.openai().chat.completions.create({ model: f.model, messages: hi });
        expect(f.maxTokensOf(fake().requests.at(-1)!.body)).toBe(f.defaultMaxTokens);
        await r
          .openai()
          .chat.completions.create({ model: f.model, messages: hi, max_tokens: 50, max_completion_tokens: 70 });
        expect(f.maxTokensOf(fake().requests.at(-1)!.body)).toBe(70);
      });

      test("non-stream chat answers OpenAI-shaped and bills exactly from the upstream's usage", async () => {
        fake().queueBehavior({ promptTokens: 37, completionTokens: 11 });
        const before = await r.userRow();
        const reply = await r.openai().chat.completions.create({ model: f.model, messages: hi });
        f.expectCall(fake().requests.at(-1)!, f, false);
        expect(reply.object).toBe("chat.completion");
        expect(reply.model).toBe(f.upstreamModel);
        expect(reply.choices).toHaveLength(1);
        expect(reply.choices[0]).toMatchObject({
          index: 0,
          message: { role: "assistant", content: DEFAULT_CONTENT },
          finish_reason: "stop",
        });
        expect(reply.usage).toMatchObject({ prompt_tokens: 37, completion_tokens: 11, total_tokens: 48 });
        const quota = quotaOf(37, 11);
        const after = await r.userRow();
        expect(before.quota - after.quota).toBe(quota);
        expect(after.used_quota - before.used_quota).toBe(quota);
        const log = (await r.consumeLogs()).at(-1);
        expect(log).toMatchObject({
          model_name: f.model,
          quota,
          prompt_tokens: 37,
          completion_tokens: 11,
          is_stream: 0,
          channel_id: channelId,
        });
        expect(JSON.parse(log.other)).toMatchObject({
          model_ratio: f.ratio,
          completion_ratio: f.completionRatio,
          usage_source: "upstream",
        });
      });

      test("a reply cut by max_tokens finishes with length", async () => {
        const reply = await r.openai().chat.completions.create({ model: f.model, messages: hi, max_tokens: 2 });
        expect(reply.choices[0]!.message.content).toBe("Hello from");
        expect(reply.choices[0]!.finish_reason).toBe("length");
      });

      test("cached prompt tokens are reported as cached_tokens and billed at the cache ratio", async () => {
        fake().queueBehavior({ promptTokens: 20, completionTokens: 5, cachedTokens: 6 });
        const before = await r.userRow();
        const reply = await r.openai().chat.completions.create({ model: f.model, messages: hi });
        const prompt = f.promptWithCache(20, 6);
        expect(reply.usage).toMatchObject({
          prompt_tokens: prompt,
          completion_tokens: 5,
          prompt_tokens_details: { cached_tokens: 6 },
        });
        const after = await r.userRow();
        expect(before.quota - after.quota).toBe(quotaOf(prompt, 5, 6));
      });

      // Only Claude reports cache writes; the test is not defined for Gemini (rather than skipped).
      if (f.name === "Anthropic")
        test("prompt-cache writes are reported as cached_creation_tokens and billed at 1.25 × the prompt price", async () => {
          fake().queueBehavior({ promptTokens: 20, completionTokens: 5, cachedTokens: 6, cacheWriteTokens: 8 });
          const before = await r.userRow();
          const reply = await r.openai().chat.completions.create({ model: f.model, messages: hi });
          expect(reply.usage).toMatchObject({
            prompt_tokens: 34,
            completion_tokens: 5,
            prompt_tokens_details: { cached_tokens: 6, cached_creation_tokens: 8 },
          });
          const after = await r.userRow();
          const quota = expectedQuota({
            prompt: 34,
            completion: 5,
            cached: 6,
            written: 8,
            ratio: f.ratio,
            completionRatio: f.completionRatio,
            cacheRatio: 0.1,
          });
          expect(before.quota - after.quota).toBe(quota);
          const other = JSON.parse((await r.consumeLogs()).at(-1).other);
          expect(other).toMatchObject({ cache_creation_tokens: 8, cache_creation_ratio: 1.25 });
        });

      test("stream chat without include_usage: OpenAI chunks, a finish reason, no usage chunk; billed from the upstream's usage", async () => {
        fake().queueBehavior({ promptTokens: 23, completionTokens: 9 });
        const before = await r.userRow();
        const stream = await r.openai().chat.completions.create({ model: f.model, messages: hi, stream: true });
        let text = "";
        const finishes: (string | null)[] = [];
        let sawUsage = false;
        let first: string | undefined;
        for await (const chunk of stream) {
          expect(chunk.object).toBe("chat.completion.chunk");
          first ??= chunk.choices[0]?.delta?.role;
          text += chunk.choices[0]?.delta?.content ?? "";
          if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
          if (chunk.usage) sawUsage = true;
        }
        f.expectCall(fake().requests.at(-1)!, f, true);
        expect(first).toBe("assistant");
        expect(text).toBe(DEFAULT_CONTENT);
        expect(finishes).toEqual(["stop"]);
        expect(sawUsage).toBe(false);
        const quota = quotaOf(23, 9);
        const log = (await r.consumeLogs()).at(-1);
        expect(log).toMatchObject({
          model_name: f.model,
          is_stream: 1,
          prompt_tokens: 23,
          completion_tokens: 9,
          quota,
          channel_id: channelId,
        });
        expect(JSON.parse(log.other)).toMatchObject({ usage_source: "upstream" });
        const after = await r.userRow();
        expect(before.quota - after.quota).toBe(quota);
      });

      test("stream chat with include_usage ends with one usage-only chunk holding the upstream's counts", async () => {
        fake().queueBehavior({ promptTokens: 31, completionTokens: 7 });
        const stream = await r.openai().chat.completions.create({
          model: f.model,
          messages: hi,
          stream: true,
          stream_options: { include_usage: true },
          max_tokens: 3,
        });
        const chunks = [];
        for await (const chunk of stream) chunks.push(chunk);
        const usageChunks = chunks.filter((c) => c.usage);
        expect(usageChunks).toHaveLength(1);
        expect(chunks.at(-1)).toBe(usageChunks[0]!);
        expect(usageChunks[0]!.choices).toEqual([]);
        expect(usageChunks[0]!.usage).toMatchObject({ prompt_tokens: 31, completion_tokens: 7, total_tokens: 38 });
        expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Hello from fake");
        expect(chunks.flatMap((c) => (c.choices[0]?.finish_reason ? [c.choices[0].finish_reason] : []))).toEqual([
          "length",
        ]);
        const log = (await r.consumeLogs()).at(-1);
        expect(log).toMatchObject({ is_stream: 1, prompt_tokens: 31, completion_tokens: 7, quota: quotaOf(31, 7) });
      });

      test("the raw stream is plain OpenAI SSE: data events only, each a chunk, ending in [DONE]", async () => {
        const response = await postStream(r, f.model);
        expect(response.headers.get("content-type")).toContain("text/event-stream");
        const events = (await response.text()).split("\n\n").filter(Boolean);
        expect(events.at(-1)).toBe("data: [DONE]");
        for (const event of events.slice(0, -1)) {
          expect(event.startsWith("data: ")).toBe(true);
          expect(JSON.parse(event.slice(6))).toMatchObject({ object: "chat.completion.chunk", model: f.upstreamModel });
        }
      });

      test("a dripping stream reaches the client before the upstream ends; a client that leaves still pays the upstream's usage", async () => {
        fake().queueBehavior({ chunkDelayMs: 80, promptTokens: 13, completionTokens: 6 });
        const before = await r.userRow();
        const logsBefore = (await r.consumeLogs()).length;
        const abort = new AbortController();
        const response = await postStream(r, f.model, {}, abort.signal);
        const reader = response.body!.getReader();
        const first = new TextDecoder().decode((await reader.read()).value);
        expect(first).toContain('"role":"assistant"');
        const upstream = fake().requests.at(-1)!;
        expect(upstream.finished).toBe(false);
        abort.abort();
        await upstream.ended;
        expect(upstream.sentText).toBe(DEFAULT_CONTENT);
        await waitFor(async () => (await r.consumeLogs()).length > logsBefore);
        const log = (await r.consumeLogs()).at(-1);
        expect(JSON.parse(log.other).stream_status.end_reason).toBe("client_gone");
        expect(log).toMatchObject({ prompt_tokens: 13, completion_tokens: 6, quota: quotaOf(13, 6) });
        expect(before.quota - (await r.userRow()).quota).toBe(quotaOf(13, 6));
      });

      test("an upstream stream that breaks off ends without [DONE] and is billed by count, not by a partial report", async () => {
        fake().queueBehavior({ breakAfterChunks: 2, promptTokens: 500, completionTokens: 500 });
        const text = await (await postStream(r, f.model)).text();
        expect(text).not.toContain("[DONE]");
        expect(text).toContain('"content":" from"');
        const log = (await r.consumeLogs()).at(-1);
        expect(JSON.parse(log.other)).toMatchObject({
          usage_source: "estimated",
          stream_status: { end_reason: "error" },
        });
        expect(log.completion_tokens).toBeGreaterThan(0);
        expect(log.completion_tokens).toBeLessThan(500);
      });

      test("a stream whose upstream reports no usage is counted, and the client that asked still gets a usage chunk", async () => {
        fake().queueBehavior({ noUsage: true, promptTokens: 999, completionTokens: 999 });
        const stream = await r.openai().chat.completions.create({
          model: f.model,
          messages: hi,
          stream: true,
          stream_options: { include_usage: true },
        });
        let usage: any;
        let text = "";
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta?.content ?? "";
          if (chunk.usage) usage = chunk.usage;
        }
        expect(text).toBe(DEFAULT_CONTENT);
        expect(usage.completion_tokens).toBeGreaterThan(0);
        expect(usage.completion_tokens).toBeLessThan(999);
        const log = (await r.consumeLogs()).at(-1);
        expect(log.completion_tokens).toBe(usage.completion_tokens);
        expect(JSON.parse(log.other).usage_source).not.toBe("upstream");
      });

      test("an upstream error comes back as the SDK's error class with the upstream status, masked, and costs nothing", async () => {
        fake().queueBehavior({ status: 429, errorMessage: "slow down please" });
        const before = await r.userRow();
        const limited = await failure(r.openai().chat.completions.create({ model: f.model, messages: hi }));
        expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
        expect(limited.status).toBe(429);
        expect(limited.message).toContain("slow down please");

        fake().queueBehavior({ status: 400, leakSecrets: true, errorMessage: "bad request" });
        const bad = await failure(r.openai().chat.completions.create({ model: f.model, messages: hi, stream: true }));
        expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
        expect(bad.status).toBe(400);
        expect(bad.message).toContain("bad request");
        expect(bad.message).not.toContain(FAKE_LEAKED_KEY);
        expect(bad.message).not.toContain(fake().url);
        expect((bad.error as any).type).toBeString();

        const after = await r.userRow();
        expect(after.quota).toBe(before.quota);
      });

      test("other endpoints are refused with a clear 400 naming the channel type, and nothing is sent upstream", async () => {
        const sent = fake().requests.length;
        const before = await r.userRow();
        const error = await failure(r.openai().embeddings.create({ model: f.model, input: "hello" }));
        expect(error).toBeInstanceOf(OpenAI.BadRequestError);
        expect(error.status).toBe(400);
        expect(error.code).toBe("unsupported_endpoint");
        expect(error.message).toContain(`/v1/embeddings is not supported by ${f.name} channels`);
        const completions = await failure(r.openai().completions.create({ model: f.model, prompt: "hi" }));
        expect(completions).toBeInstanceOf(OpenAI.BadRequestError);
        expect(fake().requests.length).toBe(sent);
        expect((await r.userRow()).quota).toBe(before.quota);
      });

      test("what the family cannot carry (logprobs) is refused with a 400 naming the parameter, and nothing is sent", async () => {
        const sent = fake().requests.length;
        const error = await failure(
          r.openai().chat.completions.create({ model: f.model, messages: hi, logprobs: true }),
        );
        expect(error).toBeInstanceOf(OpenAI.BadRequestError);
        expect(error.code).toBe("unsupported_parameter");
        expect(error.message).toContain(`logprobs is not supported on ${f.name} channels`);
        expect(fake().requests.length).toBe(sent);
      });

      test("the channel test (GET /api/channel/test/{id}) goes through the family's dialect", async () => {
        const reply = await r.s.root.get(`/api/channel/test/${channelId}`);
        expect(reply.body.success).toBe(true);
        const request = fake().requests.at(-1)!;
        f.expectCall(request, f, false);
        expect(f.maxTokensOf(request.body)).toBe(16);

        fake().queueBehavior({ status: 429 });
        const failed = await r.s.root.get(`/api/channel/test/${channelId}`);
        expect(failed.body.success).toBe(false);
        expect(failed.body.message).toContain("Rate limit");
      });
    });
  });
}
