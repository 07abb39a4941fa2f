import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startRelayEnv, type RelayEnv } from "./support";

/**
 * The error events the gateway writes itself into a stream that is already flowing follow RelayErrorLanguage,
 * in every dialect, with the same event shape; the upstream's own error text is passed on as it came.
 */
let r: RelayEnv;
let upstream: ReturnType<typeof Bun.serve>;

const sse = (value: unknown, name?: string) => `${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(value)}\n\n`;
const chatChunk = (delta: Record<string, unknown>) =>
  sse({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta }] });
const FIRST_CHUNK = chatChunk({ role: "assistant", content: "Hello" });
/** The fake upstream's models whose stream breaks off (the connection drops), or goes quiet, after two chunks. */
const CUT = "fake-break-2";
const STALL = "fake-stall-2";

const ANTHROPIC_OPENING =
  sse(
    { type: "message_start", message: { id: "msg_1", model: "claude", usage: { input_tokens: 3 } } },
    "message_start",
  ) +
  sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start") +
  sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } }, "content_block_delta");
const ANTHROPIC_MESSAGELESS_ERROR = sse({ type: "error", error: { type: "overloaded_error" } }, "error");

/** `first`, then `rest` a moment later: the relay has opened the reply and streams the rest as it comes. */
function later(first: string, rest: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(encoder.encode(first));
      await Bun.sleep(30);
      controller.enqueue(encoder.encode(rest));
      controller.close();
    },
  });
}

/** What the scripted upstream sends, by the channel's base path. */
const SCRIPTS: Record<string, () => string | ReadableStream<Uint8Array>> = {
  // An OpenAI upstream's error chunk that says no message, then the end.
  "/messageless": () => FIRST_CHUNK + sse({ error: { type: "server_error" } }),
  // An OpenAI upstream's error chunk with its own message, which is never translated.
  "/upstream-said": () => FIRST_CHUNK + sse({ error: { message: "the model is overloaded", type: "server_error" } }),
  // An Anthropic upstream's error event that says no message: in the stream as it arrived whole, or mid-stream.
  "/anthropic-messageless": () => ANTHROPIC_OPENING + ANTHROPIC_MESSAGELESS_ERROR,
  "/anthropic-late": () => later(ANTHROPIC_OPENING, ANTHROPIC_MESSAGELESS_ERROR),
};

beforeAll(async () => {
  upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const script = SCRIPTS[`/${new URL(request.url).pathname.split("/")[1]}`]!;
      return new Response(script(), { headers: { "content-type": "text/event-stream" } });
    },
  });
  r = await startRelayEnv("sqlite", { STREAMING_TIMEOUT: "1" });
  const base = upstream.url.origin;
  const translate = JSON.stringify({ responses_api: "translate" });
  await r.setPrices({
    [CUT]: 1,
    [STALL]: 1,
    messageless: 1,
    "upstream-said": 1,
    "claude-messageless": 1,
    "claude-late": 1,
  });
  await r.addChannel({ models: `${CUT},${STALL}`, setting: translate });
  await r.addChannel({ models: "messageless", base_url: `${base}/messageless`, setting: translate });
  await r.addChannel({ models: "upstream-said", base_url: `${base}/upstream-said`, setting: translate });
  await r.addChannel({
    type: 14,
    key: "sk-ant",
    models: "claude-messageless",
    base_url: `${base}/anthropic-messageless`,
  });
  await r.addChannel({ type: 14, key: "sk-ant", models: "claude-late", base_url: `${base}/anthropic-late` });
});
afterAll(async () => {
  await r.stop();
  upstream.stop(true);
});

const setLanguage = async (value: "en" | "zh") => {
  const saved = await r.s.root.put("/api/option/", { key: "RelayErrorLanguage", value });
  expect(saved.body.success).toBe(true);
};

const streamed = async (path: string, headers: Record<string, string>, body: unknown) => {
  const reply = await fetch(`${r.s.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  expect(reply.status).toBe(200);
  return reply.text();
};

/** The `data:` payloads of the stream's events named `name` (every event's when undefined), parsed. */
const eventsOf = (text: string, name?: string) =>
  text
    .split(/\r?\n\r?\n/)
    .filter((event) => name === undefined || event.startsWith(`event: ${name}\n`))
    .map((event) => /^data: (.*)$/m.exec(event)?.[1])
    .filter((data): data is string => data !== undefined && data !== "[DONE]")
    .map((data) => JSON.parse(data));

const messages = [{ role: "user", content: "hi" }];
const anthropic = (model: string) =>
  streamed("/v1/messages", { "x-api-key": r.key }, { model, max_tokens: 64, stream: true, messages });
const responses = (model: string) =>
  streamed("/v1/responses", { authorization: `Bearer ${r.key}` }, { model, input: "hi", stream: true });
const gemini = (model: string) =>
  streamed(
    `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
    { "x-goog-api-key": r.key },
    { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
  );
const chat = (model: string) =>
  streamed("/v1/chat/completions", { authorization: `Bearer ${r.key}` }, { model, stream: true, messages });

/** A stream's error events: Anthropic's and Responses' `event: error`, else the events with an `error` field. */
const errorEvents = (text: string, named = false) =>
  named ? eventsOf(text, "error") : eventsOf(text).filter((event) => event.error);

/** A messageless upstream error, in the words of the family's mapping (or Anthropic's writer). */
const NO_MESSAGE = ["upstream stream error", "上游流出错"] as const;

type Case = [name: string, errors: () => Promise<any[]>, en: string, zh: string];

/** How Anthropic's and Responses' writers say their stream ended early, and the two ways it does. */
const ENDED_EARLY = [
  ["Anthropic", anthropic, "the upstream stream ended before the reply was complete", "上游流在回复完成前中断了"],
  ["Responses", responses, "the upstream stream ended before the response was complete", "上游流在响应完成前中断了"],
] as const;
const ENDINGS = [
  [CUT, "a stream cut mid-way"],
  [STALL, "a stream quiet past the idle limit"],
] as const;

/** Each dialect's error event on one stream path: its message in English and in Chinese. */
const CASES: Case[] = [
  ...ENDED_EARLY.flatMap(([dialect, call, en, zh]) =>
    ENDINGS.map(
      ([model, how]): Case => [`${dialect}, ${how}`, async () => errorEvents(await call(model), true), en, zh],
    ),
  ),
  [
    "Responses, an upstream error without a message",
    async () => errorEvents(await responses("messageless"), true),
    "the upstream reported an error",
    "上游报告了错误",
  ],
  [
    "Gemini, an upstream error without a message",
    async () => errorEvents(await gemini("messageless")),
    "the upstream stream failed",
    "上游流出错",
  ],
  [
    "Anthropic, an upstream error without a message",
    async () => errorEvents(await anthropic("messageless"), true),
    ...NO_MESSAGE,
  ],
  [
    "OpenAI chat, an Anthropic upstream's error without a message",
    async () => errorEvents(await chat("claude-messageless")),
    ...NO_MESSAGE,
  ],
  ["OpenAI chat, the same mid-stream", async () => errorEvents(await chat("claude-late")), ...NO_MESSAGE],
  [
    "Gemini, an Anthropic upstream's error without a message mid-stream",
    async () => errorEvents(await gemini("claude-late")),
    ...NO_MESSAGE,
  ],
];

const messageOf = (event: any): string => event.error?.message ?? event.message;
const withoutMessage = (event: any) =>
  JSON.parse(JSON.stringify(event).replace(/"message":"(?:[^"\\]|\\.)*"/g, '"message":""'));

describe("error events the gateway writes into a flowing stream follow RelayErrorLanguage", () => {
  for (const [name, run, en, zh] of CASES) {
    test(`${name}: English by default, Chinese for zh, the event otherwise the same`, async () => {
      await setLanguage("en");
      const english = await run();
      expect(english).toHaveLength(1);
      expect(messageOf(english[0])).toBe(en);
      await setLanguage("zh");
      const chinese = await run();
      await setLanguage("en");
      expect(chinese).toHaveLength(1);
      expect(messageOf(chinese[0])).toBe(zh);
      expect(withoutMessage(chinese[0])).toEqual(withoutMessage(english[0]));
    });
  }

  test("the upstream's own error text is passed on untranslated", async () => {
    await setLanguage("zh");
    const said = [
      errorEvents(await anthropic("upstream-said"), true),
      errorEvents(await responses("upstream-said"), true),
      errorEvents(await gemini("upstream-said")),
      errorEvents(await chat("upstream-said")),
    ];
    await setLanguage("en");
    for (const events of said) expect(events.map(messageOf)).toEqual(["the model is overloaded"]);
  });
});
