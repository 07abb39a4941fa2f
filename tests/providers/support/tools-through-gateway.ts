import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type OpenAI from "openai";
import { expectedQuota, startRelayEnv, type RelayEnv } from "../../relay/support";
import { DIALECTS } from "../../support/databases";
import { startScriptedUpstream, type ScriptedUpstream } from "./scripted-upstream";

/** The counts every scripted reply reports, as an OpenAI client must see them. */
export interface ScriptedUsage {
  prompt: number;
  completion: number;
  cached: number;
  written: number;
  reasoning: number;
}

export interface ScriptedFamily {
  name: string;
  type: number;
  usage: ScriptedUsage;
  /** The upstream's reply calling get_weather for Paris and Rome, in its own dialect (SSE text when streamed). */
  toolCalls(stream: boolean): object | string;
  /** The upstream's reply saying `text`. */
  text(text: string): object;
  /** Names of the tools, the tool answers, and the JSON-mode request in the upstream body. */
  toolNames(body: any): string[];
  toolAnswers(body: any): unknown;
  expectedAnswers: unknown;
  expectJsonMode(body: any, schema: object): void;
}

export const WEATHER_TOOL = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

const MODEL = "family-tools-test";
const PRICES = { ratio: 2, completionRatio: 3, cacheRatio: 0.1 };
const question = [{ role: "user" as const, content: "Weather in Paris and Rome?" }];

/** An OpenAI SDK client's tool round trip and JSON mode through the gateway to a family's upstream, billed exactly. */
export function describeToolsThroughGateway(f: ScriptedFamily) {
  describe.each(DIALECTS)(`OpenAI tools and JSON mode on ${f.name} channels on %s`, (dialect) => {
    let r: RelayEnv;
    let upstream: ScriptedUpstream;
    const quota = expectedQuota({
      prompt: f.usage.prompt,
      completion: f.usage.completion,
      cached: f.usage.cached,
      written: f.usage.written,
      ...PRICES,
    });
    const expectBilled = async (before: { quota: number }) => {
      expect(before.quota - (await r.userRow()).quota).toBe(quota);
      const log = (await r.consumeLogs()).at(-1);
      expect(log).toMatchObject({ prompt_tokens: f.usage.prompt, completion_tokens: f.usage.completion, quota });
      expect(JSON.parse(log.other)).toMatchObject({ usage_source: "upstream" });
    };
    beforeAll(async () => {
      r = await startRelayEnv(dialect);
      await r.setPrices({ [MODEL]: PRICES.ratio }, { [MODEL]: PRICES.completionRatio });
      await r.s.root.put("/api/option/", {
        key: "CacheRatio",
        value: JSON.stringify({ ...r.s.ctx.options.json<object>("CacheRatio"), [MODEL]: PRICES.cacheRatio }),
      });
      upstream = startScriptedUpstream();
      await r.addChannel({ type: f.type, key: "upstream-key-0123456789", models: MODEL }, upstream.asFake());
    });
    afterAll(async () => {
      await r.stop();
      await upstream.stop();
    });

    test("a tool call round trip: tool_calls back with finish tool_calls, the answers sent as the family's tool results", async () => {
      upstream.reply(f.toolCalls(false));
      const before = await r.userRow();
      const first = await r
        .openai()
        .chat.completions.create({ model: MODEL, messages: question, tools: [WEATHER_TOOL] });
      expect(f.toolNames(upstream.received.at(-1)!.body)).toEqual(["get_weather"]);
      const choice = first.choices[0]!;
      expect(choice.finish_reason).toBe("tool_calls");
      const calls = choice.message.tool_calls!.map((c: any) => c.function);
      expect(calls).toEqual([
        { name: "get_weather", arguments: '{"city":"Paris"}' },
        { name: "get_weather", arguments: '{"city":"Rome"}' },
      ]);
      expect(first.usage).toMatchObject({
        prompt_tokens: f.usage.prompt,
        completion_tokens: f.usage.completion,
        prompt_tokens_details: { cached_tokens: f.usage.cached },
      });
      await expectBilled(before);

      upstream.reply(f.text("Sunny in Paris, rain in Rome."));
      const answers = choice.message.tool_calls!.map((c: any, i: number) => ({
        role: "tool" as const,
        tool_call_id: c.id,
        content: ["sunny", "rain"][i]!,
      }));
      const second = await r.openai().chat.completions.create({
        model: MODEL,
        messages: [...question, choice.message as OpenAI.ChatCompletionMessageParam, ...answers],
        tools: [WEATHER_TOOL],
      });
      expect(second.choices[0]!.message.content).toBe("Sunny in Paris, rain in Rome.");
      expect(f.toolAnswers(upstream.received.at(-1)!.body)).toEqual(f.expectedAnswers);
    });

    test("streamed tool calls reach the SDK as argument deltas it assembles; billed from the upstream's usage", async () => {
      upstream.reply(f.toolCalls(true));
      const before = await r.userRow();
      const stream = r.openai().chat.completions.stream({
        model: MODEL,
        messages: question,
        tools: [WEATHER_TOOL],
        stream: true,
        stream_options: { include_usage: true },
      });
      const done = await stream.finalChatCompletion();
      expect(done.choices[0]!.finish_reason).toBe("tool_calls");
      expect(done.choices[0]!.message.tool_calls!.map((c: any) => [c.id.length > 0, c.function])).toEqual([
        [true, { name: "get_weather", arguments: '{"city":"Paris"}' }],
        [true, { name: "get_weather", arguments: '{"city":"Rome"}' }],
      ]);
      expect(done.usage).toMatchObject({ prompt_tokens: f.usage.prompt, completion_tokens: f.usage.completion });
      if (f.usage.reasoning) expect(done.usage!.completion_tokens_details?.reasoning_tokens).toBe(f.usage.reasoning);
      await expectBilled(before);
    });

    test("response_format json_schema reaches the upstream (a schema or an instruction) and the JSON reply parses", async () => {
      const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
      upstream.reply(f.text('{"city":"Paris"}'));
      const before = await r.userRow();
      const reply = await r.openai().chat.completions.create({
        model: MODEL,
        messages: question,
        response_format: { type: "json_schema", json_schema: { name: "place", schema } },
      });
      f.expectJsonMode(upstream.received.at(-1)!.body, schema);
      expect(JSON.parse(reply.choices[0]!.message.content!)).toEqual({ city: "Paris" });
      await expectBilled(before);
    });
  });
}
