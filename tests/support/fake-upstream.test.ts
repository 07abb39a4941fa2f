import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import OpenAI, { APIError, toFile } from "openai";
import { startFakeAnthropic } from "./fake-anthropic";
import { startFakeGemini } from "./fake-gemini";
import { DEFAULT_CONTENT, FAKE_LEAKED_KEY, FAKE_MP3, startFakeUpstream, type FakeUpstream } from "./fake-upstream";

const KEY = "sk-upstream-test";

/** The events of an SSE body: `event:` name (if any) and `data:` text, frames split on blank lines (LF or CRLF). */
function parseSse(text: string): { event?: string; data: string }[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((frame) => frame.trim())
    .map((frame) => {
      const lines = frame.split(/\r?\n/);
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7);
      const data = lines
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("\n");
      return { event, data };
    });
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const messages = [{ role: "user" as const, content: "Say hello" }];

describe("fake OpenAI upstream", () => {
  let fake: FakeUpstream;
  let client: OpenAI;
  beforeAll(() => {
    fake = startFakeUpstream({ apiKey: KEY });
    client = new OpenAI({ apiKey: KEY, baseURL: `${fake.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.setBehavior({});
  });
  const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    post(`${fake.url}${path}`, body, { authorization: `Bearer ${KEY}`, ...headers });

  test("chat, non-stream: a chat.completion with usage, and the request is recorded", async () => {
    const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages });
    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0]!.message.content).toBe(DEFAULT_CONTENT);
    expect(completion.choices[0]!.finish_reason).toBe("stop");
    expect(completion.usage).toEqual({ prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 });
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      body: { model: "gpt-4o-mini", messages },
    });
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request).toMatchObject({ finished: true, aborted: false, sentText: DEFAULT_CONTENT });
  });

  test("chat, stream with include_usage: one chunk per word, then a usage-only chunk", async () => {
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe(DEFAULT_CONTENT);
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBe(4);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
    });
    expect(fake.requests[0]!.body.stream_options).toEqual({ include_usage: true });
  });

  test("chat, stream without include_usage: no usage chunk; 'no-usage' never sends one", async () => {
    for (const [model, options] of [
      ["gpt-4o-mini", undefined],
      ["fake-no-usage", { include_usage: true }],
    ] as const) {
      const response = await call("/v1/chat/completions", { model, messages, stream: true, stream_options: options });
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const events = parseSse(await response.text());
      expect(events.at(-1)!.data).toBe("[DONE]");
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
      expect(chunks.every((c) => !c.usage && c.choices.length === 1)).toBe(true);
    }
  });

  test("configured usage, cached tokens, content; max_tokens truncates with finish_reason length", async () => {
    fake.setBehavior({ content: "one two three", promptTokens: 50, completionTokens: 7, cachedTokens: 20 });
    const full = await client.chat.completions.create({ model: "gpt-4o", messages });
    expect(full.choices[0]!.message.content).toBe("one two three");
    expect(full.usage).toEqual({
      prompt_tokens: 50,
      completion_tokens: 7,
      total_tokens: 57,
      prompt_tokens_details: { cached_tokens: 20 },
    });
    fake.setBehavior({});
    const cut = await client.chat.completions.create({ model: "gpt-4o", messages, max_tokens: 2 });
    expect(cut.choices[0]).toMatchObject({ message: { content: "Hello from" }, finish_reason: "length" });
    expect(cut.usage!.completion_tokens).toBe(2);
  });

  test("embeddings: base64 (the SDK's default) and float, with usage", async () => {
    const decoded = await client.embeddings.create({ model: "text-embedding-3-small", input: ["a", "b"] });
    expect(decoded.data.map((d) => d.index)).toEqual([0, 1]);
    expect(decoded.data[0]!.embedding.length).toBe(8);
    expect(decoded.usage).toEqual({ prompt_tokens: 10, total_tokens: 10 });
    const floats = await client.embeddings.create({
      model: "text-embedding-3-small",
      input: "a",
      encoding_format: "float",
    });
    expect(floats.data[0]!.embedding[0]).toBeCloseTo(decoded.data[0]!.embedding[0]!, 4);
    expect(fake.requests[0]!.body.encoding_format).toBe("base64");
  });

  test("models list", async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toContain("gpt-4o-mini");
  });

  test("an error status surfaces as the SDK's APIError with status, code and Retry-After", async () => {
    const error = await client.chat.completions.create({ model: "fake-error-429", messages }).catch((e) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(429);
    expect(error.code).toBe("rate_limit_exceeded");
    expect(error.headers.get("retry-after")).toBe("1");
    for (const status of [401, 403, 500, 502, 503]) {
      const e = await client.chat.completions.create({ model: `fake-error-${status}`, messages }).catch((e) => e);
      expect([status, e instanceof APIError]).toEqual([status, true]);
      expect(e.status).toBe(status);
    }
  });

  test("a wrong key is refused with 401", async () => {
    const stranger = new OpenAI({ apiKey: "sk-wrong", baseURL: `${fake.url}/v1`, maxRetries: 0 });
    const error = await stranger.chat.completions.create({ model: "gpt-4o-mini", messages }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.code).toBe("invalid_api_key");
  });

  test("'leak' puts the upstream's URL and a key into the error message", async () => {
    const error = await client.chat.completions.create({ model: "fake-error-500-leak", messages }).catch((e) => e);
    expect(error.status).toBe(500);
    expect(error.error.message).toContain(fake.url);
    expect(error.error.message).toContain(FAKE_LEAKED_KEY);
  });

  test("behaviour from a queue (next requests only) and from the x-fake-behavior header", async () => {
    fake.queueBehavior({ status: 502 }, { status: 503, retryAfterSeconds: 7 });
    const body = { model: "gpt-4o-mini", messages };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call("/v1/chat/completions", body)).status);
    expect(statuses).toEqual([502, 503, 200]);
    const answer = await call("/v1/chat/completions", body, {
      "x-fake-behavior": JSON.stringify({ content: "from header" }),
    });
    expect((await answer.json()).choices[0].message.content).toBe("from header");
  });

  test("reset: the connection closes before any headers", async () => {
    const error = await call("/v1/chat/completions", { model: "fake-reset", messages }).catch((e) => e);
    expect(error.code).toBe("ECONNRESET");
    await fake.requests[0]!.ended;
    expect(fake.requests[0]).toMatchObject({ finished: false, aborted: false });
  });

  test("latency before headers", async () => {
    const started = performance.now();
    await client.chat.completions.create({ model: "fake-slow-150ms", messages });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  test("a client that goes away during latency is recorded as aborted", async () => {
    await client.chat.completions.create({ model: "fake-slow-1000ms", messages }, { timeout: 100 }).catch(() => {});
    await fake.requests[0]!.ended;
    expect(fake.requests[0]).toMatchObject({ aborted: true, finished: false });
  });

  test("a dripping stream paces its chunks and finishes", async () => {
    const started = performance.now();
    const stream = await client.chat.completions.create({ model: "fake-drip-30ms", messages, stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe(DEFAULT_CONTENT);
    expect(performance.now() - started).toBeGreaterThanOrEqual(6 * 30 - 5);
    expect(fake.requests[0]).toMatchObject({ finished: true, aborted: false, sentText: DEFAULT_CONTENT });
  });

  test("a client that disconnects mid-stream is recorded as aborted, with what was sent", async () => {
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: "fake-drip-100ms", messages, stream: true },
      { signal: controller.signal },
    );
    let text = "";
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (text) break;
    }
    controller.abort();
    await fake.requests[0]!.ended;
    expect(fake.requests[0]).toMatchObject({ aborted: true, finished: false });
    expect(DEFAULT_CONTENT.startsWith(fake.requests[0]!.sentText)).toBe(true);
    expect(fake.requests[0]!.sentText.length).toBeLessThan(DEFAULT_CONTENT.length);
  });

  test("a stall: two content chunks, then silence with the connection open", async () => {
    const response = await call("/v1/chat/completions", { model: "fake-stall-2", messages, stream: true });
    const reader = response.body!.getReader();
    let received = "";
    const nextRead = () => reader.read().then((r) => (r.done ? null : new TextDecoder().decode(r.value)));
    while (!received.includes(" from")) received += await nextRead();
    const silence = await Promise.race([nextRead(), Bun.sleep(300).then(() => "silence")]);
    expect(silence).toBe("silence");
    expect(fake.requests[0]).toMatchObject({ sentText: "Hello from", finished: false });
    await reader.cancel();
    await fake.requests[0]!.ended;
    expect(fake.requests[0]!.aborted).toBe(true);
  });

  test("a break: the connection drops after two content chunks", async () => {
    const response = await call("/v1/chat/completions", { model: "fake-break-2", messages, stream: true });
    const error = await response.text().catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(fake.requests[0]).toMatchObject({ sentText: "Hello from", finished: false });
  });

  test("legacy completions, non-stream and stream with usage", async () => {
    const completion = await client.completions.create({ model: "gpt-3.5-turbo-instruct", prompt: "Say hello" });
    expect(completion).toMatchObject({
      object: "text_completion",
      choices: [{ text: DEFAULT_CONTENT }],
      usage: { total_tokens: 14 },
    });
    const stream = await client.completions.create({
      model: "gpt-3.5-turbo-instruct",
      prompt: "x",
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(DEFAULT_CONTENT);
    expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 4 });
  });

  test("moderations, images, speech", async () => {
    const moderation = await client.moderations.create({ model: "omni-moderation-latest", input: ["a", "b"] });
    expect(moderation.results.map((r) => r.flagged)).toEqual([false, false]);
    const images = await client.images.generate({ model: "dall-e-3", prompt: "a cat", n: 2 });
    expect(images.data!.length).toBe(2);
    const b64 = await client.images.generate({ model: "gpt-image-1", prompt: "a cat", response_format: "b64_json" });
    expect(b64.data![0]!.b64_json).toBeString();
    expect(b64.usage).toMatchObject({ input_tokens: 10, total_tokens: 14 });
    const speech = await client.audio.speech.create({ model: "tts-1", voice: "alloy", input: "Hello" });
    expect(speech.headers.get("content-type")).toBe("audio/mpeg");
    expect(new Uint8Array(await speech.arrayBuffer())).toEqual(FAKE_MP3);
  });

  test("transcriptions and translations: multipart in, text out; the file is recorded by name and size", async () => {
    const file = await toFile(new Uint8Array(1000), "hello.mp3", { type: "audio/mpeg" });
    const transcription = await client.audio.transcriptions.create({ model: "whisper-1", file });
    expect(transcription.text).toBe(DEFAULT_CONTENT);
    expect(fake.requests[0]!.body).toMatchObject({ model: "whisper-1", file: { name: "hello.mp3", size: 1000 } });
    const translation = await client.audio.translations.create({ model: "whisper-1", file, response_format: "text" });
    expect(translation as unknown).toBe(DEFAULT_CONTENT);
  });

  test("rerank, and the dashboard billing endpoints", async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    const rerank = await call("/v1/rerank", { model: "rerank-1", query: "q", documents: ["a", "b", "c"], top_n: 2 });
    expect(await rerank.json()).toMatchObject({
      results: [{ index: 0 }, { index: 1 }],
      usage: { prompt_tokens: 10, total_tokens: 10 },
    });
    const subscription = await fetch(`${fake.url}/v1/dashboard/billing/subscription`, { headers: auth });
    expect(await subscription.json()).toMatchObject({ object: "billing_subscription", hard_limit_usd: 100 });
    const usage = await fetch(`${fake.url}/v1/dashboard/billing/usage`, { headers: auth });
    expect(await usage.json()).toEqual({ object: "list", total_usage: 1234 });
  });

  test("responses, non-stream and stream (usage on response.completed)", async () => {
    const response = await client.responses.create({ model: "gpt-4.1", input: "Say hello" });
    expect(response.output_text).toBe(DEFAULT_CONTENT);
    expect(response.usage).toMatchObject({ input_tokens: 10, output_tokens: 4, total_tokens: 14 });
    const stream = await client.responses.create({ model: "gpt-4.1", input: "Say hello", stream: true });
    const types: string[] = [];
    let text = "";
    let usage: unknown;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") usage = event.response.usage;
    }
    expect(text).toBe(DEFAULT_CONTENT);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(usage).toMatchObject({ input_tokens: 10, output_tokens: 4, total_tokens: 14 });
  });

  test("an unknown path is an OpenAI-shaped 404", async () => {
    const response = await call("/v1/nope", {});
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toBe("Invalid URL (POST /v1/nope)");
  });
});

describe("bench mode (memoize, no recording)", () => {
  test("an identical request gets the same bytes; a behaviour change is honoured", async () => {
    const fake = startFakeUpstream({ record: false, memoize: true });
    try {
      const body = { model: "gpt-4o-mini", messages };
      const texts = [];
      for (let i = 0; i < 2; i++) texts.push(await (await post(`${fake.url}/v1/chat/completions`, body)).text());
      expect(texts[1]).toBe(texts[0]!);
      fake.setBehavior({ content: "changed" });
      const changed = await (await post(`${fake.url}/v1/chat/completions`, body)).json();
      expect(changed.choices[0].message.content).toBe("changed");
      expect(fake.requests).toEqual([]);
    } finally {
      await fake.stop();
    }
  });
});

describe("fake Anthropic upstream", () => {
  let fake: FakeUpstream;
  const headers = { "x-api-key": KEY, "anthropic-version": "2023-06-01" };
  const body = { model: "claude-sonnet-4-20250514", max_tokens: 100, messages };
  beforeAll(() => (fake = startFakeAnthropic({ apiKey: KEY })));
  afterAll(() => fake.stop());

  test("non-stream: a message with usage", async () => {
    const message = await (await post(`${fake.url}/v1/messages`, body, headers)).json();
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: DEFAULT_CONTENT }],
      stop_reason: "end_turn",
      usage: { input_tokens: 10, output_tokens: 4 },
    });
  });

  test("stream: message_start, text deltas, message_delta with output usage, message_stop", async () => {
    const events = parseSse(await (await post(`${fake.url}/v1/messages`, { ...body, stream: true }, headers)).text());
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const data = events.map((e) => JSON.parse(e.data));
    expect(data.every((d, i) => d.type === events[i]!.event)).toBe(true);
    expect(data[0].message.usage.input_tokens).toBe(10);
    expect(
      data
        .filter((d) => d.type === "content_block_delta")
        .map((d) => d.delta.text)
        .join(""),
    ).toBe(DEFAULT_CONTENT);
    expect(data.at(-2)).toMatchObject({ delta: { stop_reason: "end_turn" }, usage: { output_tokens: 4 } });
  });

  test("errors are Anthropic-shaped; the key goes in x-api-key", async () => {
    const unauthorized = await post(`${fake.url}/v1/messages`, body, { "x-api-key": "wrong" });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({
      type: "error",
      error: { type: "authentication_error", message: "Incorrect API key provided." },
    });
    const overloaded = await post(`${fake.url}/v1/messages`, { ...body, model: "fake-error-529" }, headers);
    expect(overloaded.status).toBe(529);
    expect((await overloaded.json()).error.type).toBe("overloaded_error");
  });
});

describe("fake Gemini upstream", () => {
  let fake: FakeUpstream;
  const body = { contents: [{ role: "user", parts: [{ text: "Say hello" }] }] };
  beforeAll(() => (fake = startFakeGemini({ apiKey: KEY })));
  afterAll(() => fake.stop());

  test("generateContent with x-goog-api-key: candidates and usageMetadata", async () => {
    const response = await post(`${fake.url}/v1beta/models/gemini-2.0-flash:generateContent`, body, {
      "x-goog-api-key": KEY,
    });
    expect(await response.json()).toMatchObject({
      candidates: [{ content: { parts: [{ text: DEFAULT_CONTENT }], role: "model" }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 14 },
      modelVersion: "gemini-2.0-flash",
    });
  });

  test("streamGenerateContent?alt=sse with ?key=: CRLF-framed chunks, the last with the finish reason and final usage", async () => {
    const response = await post(
      `${fake.url}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse&key=${KEY}`,
      body,
    );
    const raw = await response.text();
    expect(raw).toContain("\r\n\r\n");
    const chunks = parseSse(raw).map((e) => JSON.parse(e.data));
    expect(chunks.map((c) => c.candidates[0].content.parts[0].text).join("")).toBe(DEFAULT_CONTENT);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: "STOP" }],
      usageMetadata: { candidatesTokenCount: 4, totalTokenCount: 14 },
    });
  });

  test("errors are Google-shaped; behaviour can come from the model in the path", async () => {
    const unauthorized = await post(`${fake.url}/v1beta/models/gemini-2.0-flash:generateContent`, body);
    expect(unauthorized.status).toBe(401);
    expect((await unauthorized.json()).error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" });
    const limited = await post(`${fake.url}/v1beta/models/fake-error-429:generateContent`, body, {
      "x-goog-api-key": KEY,
    });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
  });
});
