/**
 * The dialect × family matrix (issue 17, item 2): one gateway per database with a channel of every family,
 * each reached by its own model name, and one test per family × case for the inbound dialect whose
 * official-SDK client the calling file hands in. Every call must succeed and be billed exactly from the
 * upstream's reported usage, its one log row naming the inbound dialect and the family.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../../support/databases";
import { startFakeAnthropic } from "../../support/fake-anthropic";
import { startFakeGemini } from "../../support/fake-gemini";
import {
  DEFAULT_CONTENT,
  DEFAULT_PROMPT_TOKENS,
  type FakeBehavior,
  type FakeToolCall,
  type FakeUpstream,
} from "../../support/fake-upstream";
import { expectedQuota, startRelayEnv, type RelayEnv } from "../support";

export const FAMILIES = ["openai", "azure", "anthropic", "gemini"] as const;
export type Family = (typeof FAMILIES)[number];

/** The model that routes to each family's channel. */
export const MODEL: Record<Family, string> = {
  openai: "mx-openai",
  azure: "mx-azure",
  anthropic: "mx-claude",
  gemini: "mx-gemini",
};

/** The address each family's upstream is called at. */
const UPSTREAM_PATH: Record<Family, RegExp> = {
  openai: /^\/v1\/(chat\/completions|responses)$/,
  azure: /^\/openai\/(deployments\/mx-azure\/chat\/completions|v1\/responses)$/,
  anthropic: /^\/v1\/messages$/,
  gemini: /^\/v1beta\/models\/mx-gemini:(generateContent|streamGenerateContent)$/,
};

export const WEATHER: FakeToolCall = { name: "get_weather", arguments: { city: "Paris" } };
export const WEATHER_SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
export const TOOL_RESULT = "sunny";
/** A JSON Schema whose property name shows whether the schema reached the upstream (as a schema or an instruction). */
export const FORECAST_SCHEMA = {
  type: "object",
  properties: { forecast_celsius: { type: "number" } },
  required: ["forecast_celsius"],
};
/** Marks the system prompt and stop sequence the `limited` calls send, to find them in the upstream's request. */
export const SYSTEM_MARK = "System-mark: be brief.";
export const STOP_MARK = "STOP-MARK";
/** The max tokens of the `limited` calls: the fakes cut their reply to this many words. */
export const LIMIT = 2;
/** A 1×1 PNG. */
export const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** Token counts in the pivot's terms: prompt includes cached and written, completion includes reasoning. */
export interface Tokens {
  prompt: number;
  completion: number;
  cached: number;
  written: number;
  reasoning: number;
}

const namesWeather = (choice: any) => (choice?.function?.name ?? choice?.name) === WEATHER.name;
/** Whether an upstream request of each family forces the get_weather tool. */
const FORCES_WEATHER: Record<Family, (body: any) => boolean> = {
  openai: (body) => namesWeather(body.tool_choice),
  azure: (body) => namesWeather(body.tool_choice),
  anthropic: (body) => body.tool_choice?.type === "tool" && namesWeather(body.tool_choice),
  gemini: (body) =>
    body.toolConfig?.functionCallingConfig?.mode === "ANY" &&
    body.toolConfig.functionCallingConfig.allowedFunctionNames?.includes(WEATHER.name),
};

const effortOrReasoning = (body: any) => body.reasoning_effort !== undefined || body.reasoning !== undefined;
/** Whether an upstream request of each family asks for thinking. */
const ASKS_FOR_THINKING: Record<Family, (body: any) => boolean> = {
  openai: effortOrReasoning,
  azure: effortOrReasoning,
  anthropic: (body) => body.thinking !== undefined,
  gemini: (body) => body.generationConfig?.thinkingConfig !== undefined,
};
/**
 * A token budget (Anthropic's and Gemini's thinking parameter) is not carried to an OpenAI-family upstream, by
 * design: reasoning_effort is refused there by models that do not reason, and the budget is only a hint.
 */
const thinkingCarried = (family: Family, budgetOnly: boolean) =>
  !(budgetOnly && (family === "openai" || family === "azure"));

/** What the fakes are told to report in the usage cases. */
const REPORTED: FakeBehavior = {
  promptTokens: 40,
  completionTokens: 9,
  cachedTokens: 16,
  cacheWriteTokens: 8,
  reasoningTokens: 4,
};
const PLAIN: FakeBehavior = {
  promptTokens: DEFAULT_PROMPT_TOKENS,
  completionTokens: DEFAULT_CONTENT.split(" ").length,
};

/** The usage each family's upstream reports for behaviour `b`, read the way each dialect defines it. */
function reportedTokens(family: Family, b: FakeBehavior): Tokens {
  const [prompt, completion] = [b.promptTokens!, b.completionTokens!];
  const [cached, written, reasoning] = [b.cachedTokens ?? 0, b.cacheWriteTokens ?? 0, b.reasoningTokens ?? 0];
  switch (family) {
    // Anthropic's input_tokens leave out cache reads and writes; it reports no thinking count.
    case "anthropic":
      return { prompt: prompt + cached + written, completion, cached, written, reasoning: 0 };
    // Gemini's candidatesTokenCount leaves out thoughts; the OpenAI fake reports no cache writes.
    case "gemini":
      return { prompt, completion: completion + reasoning, cached, written: 0, reasoning };
    default:
      return { prompt, completion, cached, written: 0, reasoning };
  }
}

const PRICES = { ratio: 2, completionRatio: 3, cacheRatio: 0.5 };
const quotaOf = (t: Tokens) => expectedQuota({ ...t, ...PRICES });

/** A reply as the client saw it: its text and its usage in pivot terms (only the counts the dialect can express). */
export interface Seen {
  text: string;
  usage: Partial<Tokens>;
}

/** One inbound dialect driven by its official SDK. */
export interface MatrixClient {
  /** The log row's other.inbound for this dialect. */
  inbound: string;
  /** The SDK this dialect is driven by, for the test names. */
  sdk: string;
  /** The dialect asks for thinking by a token budget, not an effort level. */
  budgetOnly: boolean;
  /** The dialect has stop sequences (the Responses API has none). */
  stopSequences: boolean;
  text(r: RelayEnv, model: string): Promise<Seen>;
  stream(r: RelayEnv, model: string): Promise<Seen>;
  /** Offers get_weather, answers the call the model makes with TOOL_RESULT; the call made and the final text. */
  toolRoundTrip(r: RelayEnv, model: string): Promise<{ name: string; args: unknown; text: string }>;
  /** Forces get_weather in a stream; the call as the SDK assembled it from the streamed argument deltas. */
  streamedToolCall(r: RelayEnv, model: string): Promise<{ name: string; args: unknown }>;
  /**
   * Sends SYSTEM_MARK as the system prompt, STOP_MARK as a stop sequence (where the dialect has them), temperature 0.25, top_p 0.5 and
   * max tokens LIMIT; the reply text and whether its stop reason says the limit cut it.
   */
  limited(r: RelayEnv, model: string): Promise<{ text: string; cut: boolean }>;
  /** Asks for thinking with the dialect's own budget or effort parameter; the reply text. */
  thinking(r: RelayEnv, model: string): Promise<string>;
  /** Asks for JSON matching FORECAST_SCHEMA in the dialect's structured-output parameter; the reply text. */
  jsonSchema(r: RelayEnv, model: string): Promise<string>;
  /** Asks about TINY_PNG sent inline. */
  image(r: RelayEnv, model: string): Promise<string>;
}

export interface MatrixEnv {
  r: RelayEnv;
  upstream: Record<Family, FakeUpstream>;
  /** The user's balance fell by exactly the quotas, the last log rows carry them, one each, naming dialect and family. */
  billed(before: { quota: number }, quotas: number[], family: Family): Promise<void>;
}

/** The gateway with one channel per family, priced alike. */
async function startMatrix(dialect: (typeof DIALECTS)[number], inbound: string): Promise<MatrixEnv> {
  const r = await startRelayEnv(dialect);
  const behavior = { toolCall: WEATHER };
  r.fake.setBehavior(behavior);
  const upstream: Record<Family, FakeUpstream> = {
    openai: r.fake,
    azure: r.fake,
    anthropic: startFakeAnthropic({ behavior }),
    gemini: startFakeGemini({ behavior }),
  };
  const models = Object.values(MODEL);
  const each = (value: number) => Object.fromEntries(models.map((m) => [m, value]));
  await r.setPrices(each(PRICES.ratio), each(PRICES.completionRatio));
  await r.s.root.put("/api/option/", { key: "CacheRatio", value: JSON.stringify(each(PRICES.cacheRatio)) });
  await r.addChannel({ models: MODEL.openai });
  await r.addChannel({ type: 3, models: MODEL.azure });
  await r.addChannel({ type: 14, key: "sk-ant-upstream", models: MODEL.anthropic }, upstream.anthropic);
  await r.addChannel({ type: 24, key: "AIza-upstream", models: MODEL.gemini }, upstream.gemini);
  return {
    r,
    upstream,
    async billed(before, quotas, family) {
      const after = await r.userRow();
      expect(before.quota - after.quota).toBe(quotas.reduce((a, b) => a + b, 0));
      const rows = (await r.consumeLogs()).slice(-quotas.length);
      expect(rows.map((row) => row.quota)).toEqual(quotas);
      for (const row of rows) expect(JSON.parse(row.other)).toMatchObject({ inbound, family });
      expect(new Set(rows.map((row) => row.request_id)).size).toBe(quotas.length);
    },
  };
}

/** Keeps the counts `seen` carries, so dialects that cannot express one are not held to it. */
const expressed = (expected: Tokens, seen: Partial<Tokens>) =>
  Object.fromEntries(Object.keys(seen).map((k) => [k, expected[k as keyof Tokens]]));

/** The matrix for one inbound dialect, on every database. */
export function describeMatrix(client: MatrixClient, extra?: (env: () => MatrixEnv) => void) {
  describe.each(DIALECTS)(`${client.inbound} inbound (${client.sdk}) × every family on %s`, (dialect) => {
    let env: MatrixEnv;
    beforeAll(async () => {
      env = await startMatrix(dialect, client.inbound);
    });
    afterAll(async () => {
      await env.r.stop();
      await env.upstream.anthropic.stop();
      await env.upstream.gemini.stop();
    });

    for (const family of FAMILIES) {
      const model = MODEL[family];
      const name = (what: string) => `${client.inbound} × ${family} × ${what}`;
      const plain = reportedTokens(family, PLAIN);

      const replied = async (call: (r: RelayEnv, model: string) => Promise<Seen>, tokens: Tokens) => {
        const before = await env.r.userRow();
        const seen = await call(env.r, model);
        expect(seen.text).toBe(DEFAULT_CONTENT);
        expect(env.upstream[family].requests.at(-1)!.path).toMatch(UPSTREAM_PATH[family]);
        expect(seen.usage).toEqual(expressed(tokens, seen.usage));
        await env.billed(before, [quotaOf(tokens)], family);
      };

      test(name("non-stream"), () => replied(client.text, plain));
      test(name("stream"), () => replied(client.stream, plain));

      for (const [what, call] of [
        ["usage with cached, cache-write and reasoning tokens (non-stream)", client.text],
        ["usage with cached, cache-write and reasoning tokens (stream)", client.stream],
      ] as const) {
        test(name(what), () => {
          env.upstream[family].queueBehavior(REPORTED);
          return replied(call, reportedTokens(family, REPORTED));
        });
      }

      test(name("tool round trip"), async () => {
        const before = await env.r.userRow();
        const done = await client.toolRoundTrip(env.r, model);
        expect(done).toEqual({ name: WEATHER.name, args: WEATHER.arguments, text: DEFAULT_CONTENT });
        const sent = env.upstream[family].requests.at(-1)!;
        expect(JSON.stringify(sent.body)).toContain(TOOL_RESULT);
        await env.billed(before, [quotaOf(plain), quotaOf(plain)], family);
      });

      test(name("streamed tool call, forced by tool_choice"), async () => {
        const before = await env.r.userRow();
        expect(await client.streamedToolCall(env.r, model)).toEqual({ name: WEATHER.name, args: WEATHER.arguments });
        expect(FORCES_WEATHER[family](env.upstream[family].requests.at(-1)!.body)).toBe(true);
        await env.billed(before, [quotaOf(plain)], family);
      });

      test(name("system prompt, stop sequences, temperature, top_p, and max tokens cutting the reply"), async () => {
        const before = await env.r.userRow();
        const words = DEFAULT_CONTENT.split(" ");
        expect(await client.limited(env.r, model)).toEqual({ text: words.slice(0, LIMIT).join(" "), cut: true });
        const sent = JSON.stringify(env.upstream[family].requests.at(-1)!.body);
        const marks = [SYSTEM_MARK, "0.25", "0.5", ...(client.stopSequences ? [STOP_MARK] : [])];
        for (const mark of marks) expect(sent).toContain(mark);
        const tokens = reportedTokens(family, { promptTokens: DEFAULT_PROMPT_TOKENS, completionTokens: LIMIT });
        await env.billed(before, [quotaOf(tokens)], family);
      });

      const carried = thinkingCarried(family, client.budgetOnly);
      test(name(`a thinking budget or effort ${carried ? "reaches the upstream" : "is left out"}`), async () => {
        const before = await env.r.userRow();
        expect(await client.thinking(env.r, model)).toBe(DEFAULT_CONTENT);
        const sent = env.upstream[family].requests.at(-1)!.body;
        expect(ASKS_FOR_THINKING[family](sent)).toBe(carried);
        expect(sent.thinking_budget).toBeUndefined();
        await env.billed(before, [quotaOf(plain)], family);
      });

      test(name("JSON schema output (never dropped silently)"), async () => {
        const before = await env.r.userRow();
        expect(await client.jsonSchema(env.r, model)).toBe(DEFAULT_CONTENT);
        expect(JSON.stringify(env.upstream[family].requests.at(-1)!.body)).toContain("forecast_celsius");
        await env.billed(before, [quotaOf(plain)], family);
      });

      test(name("image input"), async () => {
        const before = await env.r.userRow();
        expect(await client.image(env.r, model)).toBe(DEFAULT_CONTENT);
        expect(JSON.stringify(env.upstream[family].requests.at(-1)!.body)).toContain(TINY_PNG);
        await env.billed(before, [quotaOf(plain)], family);
      });
    }

    extra?.(() => env);
  });
}
