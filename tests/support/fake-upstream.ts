/**
 * Fake upstream providers on loopback ports, for relay tests and the bench. This module holds the
 * server shared by all dialects and the OpenAI dialect; fake-anthropic.ts and fake-gemini.ts add theirs.
 *
 * Behaviour comes from, in increasing precedence: the server's options, `setBehavior`, `queueBehavior`
 * (next requests only), directives in a model name starting with "fake-" (see `behaviorFromModel`),
 * and a JSON `x-fake-behavior` request header.
 */

import { argumentPieces, dueToolCall, toolCallId } from "./fake-tool-call";

export interface FakeBehavior {
  /** Answer with this HTTP error status and the dialect's error body; 429 and 503 add Retry-After. */
  status?: number;
  errorMessage?: string;
  retryAfterSeconds?: number;
  /** The error message names the upstream's own URL and FAKE_LEAKED_KEY (the gateway must mask them). */
  leakSecrets?: boolean;
  /** Close the connection before sending any headers. */
  reset?: boolean;
  /** Wait this long before answering. */
  latencyMs?: number;
  /** Wait this long before each stream frame after the first. */
  chunkDelayMs?: number;
  /** Send this many content chunks, then nothing more while keeping the connection open. */
  stallAfterChunks?: number;
  /** Send this many content chunks, then drop the connection. */
  breakAfterChunks?: number;
  /** The reply text; each whitespace-led word is one stream chunk (and one token for the default). */
  content?: string;
  /** Reported prompt (input) tokens; default DEFAULT_PROMPT_TOKENS. */
  promptTokens?: number;
  /** Reported completion (output) tokens; default: the number of content chunks in the reply. */
  completionTokens?: number;
  /** Reported cached prompt tokens; omitted from usage unless set. */
  cachedTokens?: number;
  /** Reported prompt-cache writes (the Anthropic dialect's cache_creation_input_tokens). */
  cacheWriteTokens?: number;
  /** Reported reasoning (thinking) tokens, part of the completion tokens; omitted from usage unless set. */
  reasoningTokens?: number;
  /** Never report usage, even when the request asks for it. */
  noUsage?: boolean;
  /**
   * A scripted tool round trip: while the request offers a tool of this name and carries no tool result
   * yet, the reply is a call of it with these arguments; once the result is in, the reply is `content`.
   */
  toolCall?: FakeToolCall;
}

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export const DEFAULT_CONTENT = "Hello from fake upstream";
export const DEFAULT_PROMPT_TOKENS = 10;
/** Appears in error messages of `leakSecrets` behaviour. */
export const FAKE_LEAKED_KEY = "sk-fake-LEAKED0123456789abcdef";

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string, "" or starting with "?". */
  search: string;
  /** Lower-case names, as received. */
  headers: Record<string, string>;
  /** Parsed JSON; multipart fields (files as {name, type, size}); raw text otherwise; undefined if empty. */
  body: any;
  /** Reply text sent so far (stream chunks or the whole non-stream reply). */
  sentText: string;
  /** The client went away before the answer was complete. */
  aborted: boolean;
  /** The whole answer was handed to the connection. */
  finished: boolean;
  /** Settles when the answer is finished, aborted, broken or reset. */
  ended: Promise<void>;
}

export interface FakeUpstreamOptions {
  port?: number;
  hostname?: string;
  behavior?: FakeBehavior;
  /** When set, requests without this key (in the dialect's auth header) get 401. */
  apiKey?: string;
  /** Served by the model list. */
  models?: string[];
  /** What the dashboard billing calls report (default 100 USD limit, 1234 cents used). */
  billing?: { hardLimitUsd?: number; totalUsageCents?: number };
  /** Keep `requests` (default true; the bench turns it off). */
  record?: boolean;
  /**
   * Bench mode: a request identical to an earlier well-behaved one (method, URL, raw body; no
   * x-fake-behavior header, nothing queued) gets the same reply bytes at once, ids included, without
   * being recorded or authenticated.
   */
  memoize?: boolean;
  /** Routes ("POST /v1/responses") this upstream lacks: they answer 404 whatever the behaviour, as an upstream without them does. */
  missingRoutes?: string[];
}

export interface FakeUpstream {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Replaces the server-level behaviour ({} for a well-behaved upstream). */
  setBehavior(behavior: FakeBehavior): void;
  /** Applies to the next requests, one behaviour each, in order. */
  queueBehavior(...behaviors: FakeBehavior[]): void;
  stop(): Promise<void>;
}

/** One SSE frame; `text` marks a content chunk carrying that reply text. */
export interface Frame {
  data: string;
  text?: string;
}

export type FakeReply =
  | Response
  | { json: unknown; status?: number; headers?: Record<string, string> }
  | { frames: Frame[]; contentType?: string };

export interface FakeCall {
  request: Request;
  url: URL;
  body: any;
  behavior: FakeBehavior;
  /** The reply text and its usage, after any max-tokens limit the dialect found in the request. */
  reply(maxTokens?: number): ReplyText;
  /** Sequence number of the request, for ids. */
  seq: number;
  baseUrl: string;
  options: FakeUpstreamOptions;
}

export interface FakeDialect {
  model(url: URL, body: any): string | undefined;
  authorized(request: Request, url: URL, apiKey: string): boolean;
  errorBody(status: number, message: string): unknown;
  /** undefined → 404. */
  handle(call: FakeCall): FakeReply | undefined;
}

export interface ReplyText {
  text: string;
  pieces: string[];
  /** The max-tokens limit cut the reply short. */
  truncated: boolean;
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  noUsage: boolean;
}

export const sseData = (value: unknown, text?: string): Frame => ({ data: `data: ${JSON.stringify(value)}\n\n`, text });
export const sseEvent = (type: string, value: unknown, text?: string): Frame => ({
  data: `event: ${type}\ndata: ${JSON.stringify(value)}\n\n`,
  text,
});
export const SSE_DONE: Frame = { data: "data: [DONE]\n\n" };
export const unixNow = () => Math.floor(Date.now() / 1000);

const MODEL_DIRECTIVES: [RegExp, (n: number) => FakeBehavior][] = [
  [/-error-(\d{3})\b/, (n) => ({ status: n })],
  [/-slow-(\d+)ms\b/, (n) => ({ latencyMs: n })],
  [/-drip-(\d+)ms\b/, (n) => ({ chunkDelayMs: n })],
  [/-stall-(\d+)\b/, (n) => ({ stallAfterChunks: n })],
  [/-break-(\d+)\b/, (n) => ({ breakAfterChunks: n })],
  [/-cached-(\d+)\b/, (n) => ({ cachedTokens: n })],
  [/-reset\b/, () => ({ reset: true })],
  [/-no-usage\b/, () => ({ noUsage: true })],
  [/-leak\b/, () => ({ leakSecrets: true })],
];

/**
 * Directives in a model name starting with "fake-", combinable: "fake-error-500", "fake-error-429-leak",
 * "fake-slow-200ms", "fake-drip-50ms", "fake-stall-2", "fake-break-2", "fake-reset", "fake-no-usage",
 * "fake-cached-4", "fake-drip-100ms-no-usage".
 */
export function behaviorFromModel(model: string | undefined): FakeBehavior {
  if (!model?.startsWith("fake-")) return {};
  const behavior: FakeBehavior = {};
  for (const [pattern, make] of MODEL_DIRECTIVES) {
    const match = pattern.exec(model);
    if (match) Object.assign(behavior, make(Number(match[1])));
  }
  return behavior;
}

function replyText(behavior: FakeBehavior, maxTokens?: number): ReplyText {
  const text = behavior.content ?? DEFAULT_CONTENT;
  const all = text.match(/\s*\S+/g) ?? [];
  const pieces = maxTokens !== undefined && maxTokens < all.length ? all.slice(0, maxTokens) : all;
  return {
    text: pieces.join(""),
    pieces,
    truncated: pieces.length < all.length,
    promptTokens: behavior.promptTokens ?? DEFAULT_PROMPT_TOKENS,
    completionTokens: behavior.completionTokens ?? pieces.length,
    cachedTokens: behavior.cachedTokens,
    cacheWriteTokens: behavior.cacheWriteTokens,
    reasoningTokens: behavior.reasoningTokens,
    noUsage: behavior.noUsage ?? false,
  };
}

const DEFAULT_ERROR_MESSAGES: Record<number, string> = {
  401: "Incorrect API key provided.",
  403: "You are not allowed to use this model.",
  404: "Not found.",
  429: "Rate limit reached for requests.",
  500: "The server had an error while processing your request.",
  502: "Bad gateway.",
  503: "The engine is currently overloaded, please try again later.",
};

async function readBody(request: Request, raw: string | undefined): Promise<any> {
  if (raw === undefined) {
    const form = await request.formData();
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form) {
      fields[name] = typeof value === "string" ? value : { name: value.name, type: value.type, size: value.size };
    }
    return fields;
  }
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function headerBehavior(request: Request): FakeBehavior | undefined {
  const header = request.headers.get("x-fake-behavior");
  return header ? JSON.parse(header) : undefined;
}

const isPlain = (b: FakeBehavior) =>
  !b.status &&
  !b.reset &&
  !b.latencyMs &&
  !b.chunkDelayMs &&
  b.stallAfterChunks === undefined &&
  b.breakAfterChunks === undefined;

const resetConnection = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.error();
      },
    }),
  );

const untilAborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true }),
  );

const encoder = new TextEncoder();

/** Streams frames with the behaviour's pacing, stall or break, keeping the record's flags current. */
function streamFrames(
  frames: Frame[],
  behavior: FakeBehavior,
  record: RecordedRequest,
  end: () => void,
  gone: AbortSignal,
) {
  let next = 0;
  let chunks = 0;
  const finish = (controller: ReadableStreamDefaultController) => {
    controller.close();
    record.finished = true;
    end();
  };
  return new ReadableStream({
    async pull(controller) {
      if (next > 0 && behavior.chunkDelayMs) await Promise.race([Bun.sleep(behavior.chunkDelayMs), untilAborted(gone)]);
      if (gone.aborted) return;
      const frame = frames[next++];
      if (!frame) return finish(controller);
      if (frame.text !== undefined) {
        if (chunks === behavior.stallAfterChunks) {
          await untilAborted(gone);
          return;
        }
        if (chunks === behavior.breakAfterChunks) {
          // Let what was sent reach the client first, so the break comes after the headers.
          await Bun.sleep(5);
          controller.error();
          end();
          return;
        }
        chunks++;
        record.sentText += frame.text;
      }
      controller.enqueue(encoder.encode(frame.data));
      if (next === frames.length) finish(controller);
    },
    cancel() {
      record.aborted = true;
      end();
    },
  });
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** Starts a fake upstream speaking `dialect`. */
export function startFakeServer(dialect: FakeDialect, options: FakeUpstreamOptions = {}): FakeUpstream {
  let behavior = options.behavior ?? {};
  const queue: FakeBehavior[] = [];
  const requests: RecordedRequest[] = [];
  const memo = new Map<string, { body: string; status: number; headers: Record<string, string> }>();
  const remember = (key: string | undefined, body: string, status: number, headers: Record<string, string>) => {
    if (!key) return;
    if (memo.size >= 1000) memo.clear();
    memo.set(key, { body, status, headers });
  };
  const closing = new AbortController();
  const hostname = options.hostname ?? "127.0.0.1";
  let seq = 0;
  let baseUrl = "";

  const server = Bun.serve({
    port: options.port ?? 0,
    hostname,
    idleTimeout: 0,
    async fetch(request) {
      const multipart = request.headers.get("content-type")?.startsWith("multipart/form-data") ?? false;
      const raw = multipart ? undefined : await request.text();
      const memoKey = options.memoize && raw !== undefined ? `${request.method} ${request.url} ${raw}` : undefined;
      const cached =
        memoKey && !queue.length && !request.headers.has("x-fake-behavior") ? memo.get(memoKey) : undefined;
      if (cached) return new Response(cached.body, cached);
      const url = new URL(request.url);
      const body = await readBody(request, raw);
      let resolveEnded!: () => void;
      let over = false;
      const end = () => {
        over = true;
        resolveEnded();
      };
      const record: RecordedRequest = {
        method: request.method,
        path: url.pathname,
        search: url.search,
        headers: Object.fromEntries(request.headers),
        body,
        sentText: "",
        aborted: false,
        finished: false,
        ended: new Promise<void>((resolve) => (resolveEnded = resolve)),
      };
      if (options.record !== false) requests.push(record);
      const gone = AbortSignal.any([request.signal, closing.signal]);
      gone.addEventListener("abort", () => {
        if (!over) record.aborted = true;
        end();
      });

      const queued = queue.shift();
      const b: FakeBehavior = {
        ...behavior,
        ...queued,
        ...behaviorFromModel(dialect.model(url, body)),
        ...headerBehavior(request),
      };
      if (b.latencyMs) await Promise.race([Bun.sleep(b.latencyMs), untilAborted(gone)]);
      if (gone.aborted) return new Response(null, { status: 499 });
      if (b.reset) {
        end();
        return resetConnection();
      }
      if (options.missingRoutes?.includes(`${request.method} ${url.pathname}`)) {
        return done(errorResponse(404, `Invalid URL (${request.method} ${url.pathname})`, {}));
      }
      if (options.apiKey && !dialect.authorized(request, url, options.apiKey)) {
        return done(errorResponse(401, DEFAULT_ERROR_MESSAGES[401]!, {}));
      }
      if (b.status && b.status >= 400) {
        let message = b.errorMessage ?? DEFAULT_ERROR_MESSAGES[b.status] ?? `Upstream error ${b.status}.`;
        if (b.leakSecrets) message += ` (while calling ${baseUrl}${url.pathname} with key ${FAKE_LEAKED_KEY})`;
        const headers: Record<string, string> =
          b.status === 429 || b.status === 503 ? { "retry-after": String(b.retryAfterSeconds ?? 1) } : {};
        return done(errorResponse(b.status, message, headers));
      }

      const memoable = isPlain(b) && !queued && !request.headers.has("x-fake-behavior") ? memoKey : undefined;
      let lastReply: ReplyText | undefined;
      const call: FakeCall = {
        request,
        url,
        body,
        behavior: b,
        seq: ++seq,
        baseUrl,
        options,
        reply: (maxTokens) => (lastReply = replyText(b, maxTokens)),
      };
      const reply = dialect.handle(call) ?? {
        json: dialect.errorBody(404, `Invalid URL (${request.method} ${url.pathname})`),
        status: 404,
      };
      if (reply instanceof Response) return done(reply, lastReply?.text);
      if ("json" in reply) {
        const headers = { "content-type": "application/json", ...reply.headers };
        const text = JSON.stringify(reply.json);
        remember(memoable, text, reply.status ?? 200, headers);
        return done(new Response(text, { status: reply.status ?? 200, headers }), lastReply?.text);
      }
      const headers = { ...SSE_HEADERS, "content-type": reply.contentType ?? SSE_HEADERS["content-type"] };
      if (isPlain(b)) {
        const text = reply.frames.map((f) => f.data).join("");
        remember(memoable, text, 200, headers);
        return done(new Response(text, { headers }), reply.frames.map((f) => f.text ?? "").join(""));
      }
      return new Response(streamFrames(reply.frames, b, record, end, gone), { headers });

      function done(response: Response, sentText = "") {
        record.sentText = sentText;
        record.finished = true;
        end();
        return response;
      }
      function errorResponse(status: number, message: string, headers: Record<string, string>) {
        return Response.json(dialect.errorBody(status, message), { status, headers });
      }
    },
  });
  baseUrl = `http://${hostname}:${server.port}`;

  return {
    url: baseUrl,
    port: server.port!,
    requests,
    setBehavior(next) {
      behavior = next;
      memo.clear();
    },
    queueBehavior: (...next) => void queue.push(...next),
    async stop() {
      closing.abort();
      await server.stop(true);
    },
  };
}

// ---- OpenAI dialect ----

const OPENAI_ERRORS: Record<number, [type: string, code: string | null]> = {
  400: ["invalid_request_error", null],
  401: ["invalid_request_error", "invalid_api_key"],
  403: ["permission_error", "unsupported_country_region_territory"],
  404: ["invalid_request_error", "not_found"],
  429: ["requests", "rate_limit_exceeded"],
};

export const openaiError = (status: number, message: string) => {
  const [type, code] = OPENAI_ERRORS[status] ?? ["server_error", null];
  return { error: { message, type, param: null, code } };
};

const openaiUsage = (r: ReplyText) => ({
  prompt_tokens: r.promptTokens,
  completion_tokens: r.completionTokens,
  total_tokens: r.promptTokens + r.completionTokens,
  ...(r.cachedTokens !== undefined && { prompt_tokens_details: { cached_tokens: r.cachedTokens } }),
  ...(r.reasoningTokens !== undefined && { completion_tokens_details: { reasoning_tokens: r.reasoningTokens } }),
});

/** The chat request's scripted tool call, when this is the turn for it. */
const chatToolCall = ({ body, behavior }: FakeCall) =>
  dueToolCall(
    behavior.toolCall,
    (body.tools ?? []).map((t: any) => t.function?.name),
    (body.messages ?? []).some((m: any) => m.role === "tool"),
  );

const wantsUsage = (body: any, r: ReplyText) => body?.stream_options?.include_usage === true && !r.noUsage;
const finishReason = (r: ReplyText) => (r.truncated ? "length" : "stop");

function chatCompletion(call: FakeCall): FakeReply {
  const { body, reply, seq } = call;
  const r = reply(body.max_completion_tokens ?? body.max_tokens);
  const tool = chatToolCall(call);
  const head = (object: string) => ({
    id: `chatcmpl-fake-${seq}`,
    object,
    created: unixNow(),
    model: body.model,
    system_fingerprint: "fp_fake",
  });
  if (!body.stream) {
    return {
      json: {
        ...head("chat.completion"),
        choices: [
          {
            index: 0,
            message: tool
              ? { role: "assistant", content: null, refusal: null, tool_calls: [chatToolCallOf(tool, seq)] }
              : { role: "assistant", content: r.text, refusal: null },
            logprobs: null,
            finish_reason: tool ? "tool_calls" : finishReason(r),
          },
        ],
        ...(!r.noUsage && { usage: openaiUsage(r) }),
      },
    };
  }
  const usage = wantsUsage(body, r);
  const chunk = (choices: unknown[], extra: object = {}, text?: string) =>
    sseData({ ...head("chat.completion.chunk"), choices, ...(usage && { usage: null }), ...extra }, text);
  const choice = (delta: object, finish: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finish,
  });
  const toolDelta = (index: number, fn: object, id?: object) => ({
    tool_calls: [{ index, ...id, function: fn }],
  });
  const toolFrames = (t: FakeToolCall) => {
    const [first, rest] = argumentPieces(t);
    return [
      chunk([choice(toolDelta(0, { name: t.name, arguments: "" }, { id: toolCallId(seq), type: "function" }))]),
      chunk([choice(toolDelta(0, { arguments: first }))]),
      chunk([choice(toolDelta(0, { arguments: rest }))]),
      chunk([choice({}, "tool_calls")]),
    ];
  };
  return {
    frames: [
      chunk([choice({ role: "assistant", content: tool ? null : "" })]),
      ...(tool
        ? toolFrames(tool)
        : [
            ...r.pieces.map((piece) => chunk([choice({ content: piece })], {}, piece)),
            chunk([choice({}, finishReason(r))]),
          ]),
      ...(usage ? [chunk([], { usage: openaiUsage(r) })] : []),
      SSE_DONE,
    ],
  };
}

const chatToolCallOf = (t: FakeToolCall, seq: number) => ({
  id: toolCallId(seq),
  type: "function",
  function: { name: t.name, arguments: JSON.stringify(t.arguments) },
});

function textCompletion({ body, reply, seq }: FakeCall): FakeReply {
  const r = reply(body.max_tokens);
  const head = { id: `cmpl-fake-${seq}`, object: "text_completion", created: unixNow(), model: body.model };
  const choice = (text: string, finish: string | null) => ({ text, index: 0, logprobs: null, finish_reason: finish });
  if (!body.stream)
    return {
      json: { ...head, choices: [choice(r.text, finishReason(r))], ...(!r.noUsage && { usage: openaiUsage(r) }) },
    };
  return {
    frames: [
      ...r.pieces.map((piece) => sseData({ ...head, choices: [choice(piece, null)] }, piece)),
      sseData({ ...head, choices: [choice("", finishReason(r))] }),
      ...(wantsUsage(body, r) ? [sseData({ ...head, choices: [], usage: openaiUsage(r) })] : []),
      SSE_DONE,
    ],
  };
}

const inputsOf = (input: unknown): unknown[] =>
  Array.isArray(input) && input.length > 0 && typeof input[0] !== "number" ? input : [input];

function fakeVector(index: number, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, i) => Math.round(Math.sin(index + i + 1) * 1e4) / 1e4);
}

function embeddings({ body, reply }: FakeCall): FakeReply {
  const r = reply();
  const data = inputsOf(body.input).map((_, index) => {
    const vector = fakeVector(index, body.dimensions ?? 8);
    const embedding =
      body.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
    return { object: "embedding", index, embedding };
  });
  const usage = { prompt_tokens: r.promptTokens, total_tokens: r.promptTokens };
  return { json: { object: "list", data, model: body.model, ...(!r.noUsage && { usage }) } };
}

const MODERATION_CATEGORIES = ["harassment", "hate", "self-harm", "sexual", "violence"];

function moderations({ body, seq }: FakeCall): FakeReply {
  const result = {
    flagged: false,
    categories: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, false])),
    category_scores: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, 0.0001])),
  };
  return {
    json: {
      id: `modr-fake-${seq}`,
      model: body.model ?? "omni-moderation-latest",
      results: inputsOf(body.input).map(() => result),
    },
  };
}

/** A 1×1 transparent PNG. */
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

function images({ body, baseUrl, reply }: FakeCall): FakeReply {
  const r = reply();
  const data = Array.from({ length: body.n ?? 1 }, (_, i) =>
    body.response_format === "b64_json"
      ? { b64_json: TINY_PNG }
      : { url: `${baseUrl}/files/image-${i}.png`, revised_prompt: body.prompt },
  );
  const usage = {
    input_tokens: r.promptTokens,
    output_tokens: r.completionTokens,
    total_tokens: r.promptTokens + r.completionTokens,
    input_tokens_details: { text_tokens: r.promptTokens, image_tokens: 0 },
  };
  return {
    json: { created: unixNow(), data, ...(String(body.model).startsWith("gpt-image") && !r.noUsage && { usage }) },
  };
}

/** An ID3 header and silence: enough to look like MP3 bytes. */
export const FAKE_MP3 = new Uint8Array([
  0x49,
  0x44,
  0x33,
  0x04,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  ...new Array(246).fill(0),
]);

const speech = (): FakeReply => new Response(FAKE_MP3, { headers: { "content-type": "audio/mpeg" } });

function transcription({ body, reply }: FakeCall): FakeReply {
  const { text } = reply();
  if (body?.response_format === "text")
    return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });
  return { json: { text } };
}

function rerank({ body, reply }: FakeCall): FakeReply {
  const r = reply();
  const documents: unknown[] = body.documents ?? [];
  const results = documents
    .map((document, index) => ({
      index,
      relevance_score: Math.round((1 - index / (documents.length + 1)) * 1e4) / 1e4,
      ...(body.return_documents && { document: typeof document === "string" ? { text: document } : document }),
    }))
    .slice(0, body.top_n ?? documents.length);
  const usage = { prompt_tokens: r.promptTokens, completion_tokens: 0, total_tokens: r.promptTokens };
  return { json: { id: `rerank-fake`, model: body.model, results, ...(!r.noUsage && { usage }) } };
}

/** The Responses request's scripted tool call, when this is the turn for it. */
const responsesToolCall = ({ body, behavior }: FakeCall) =>
  dueToolCall(
    behavior.toolCall,
    (body.tools ?? []).map((t: any) => t.name),
    Array.isArray(body.input) && body.input.some((item: any) => item.type === "function_call_output"),
  );

function responses(call: FakeCall): FakeReply {
  const { body, reply, seq } = call;
  const r = reply(body.max_output_tokens);
  const tool = responsesToolCall(call);
  const itemId = tool ? `fc_fake_${seq}` : `msg_fake_${seq}`;
  const part = (text: string) => ({ type: "output_text", text, annotations: [] });
  const item = (status: string, content: unknown[]) => ({
    type: "message",
    id: itemId,
    status,
    role: "assistant",
    content,
  });
  const callItem = (status: string, args: string) => ({
    type: "function_call",
    id: itemId,
    call_id: toolCallId(seq),
    name: tool?.name,
    arguments: args,
    status,
  });
  const usage = {
    input_tokens: r.promptTokens,
    input_tokens_details: { cached_tokens: r.cachedTokens ?? 0 },
    output_tokens: r.completionTokens,
    output_tokens_details: { reasoning_tokens: r.reasoningTokens ?? 0 },
    total_tokens: r.promptTokens + r.completionTokens,
  };
  const response = (status: string, output: unknown[], withUsage: boolean) => ({
    id: `resp_fake_${seq}`,
    object: "response",
    created_at: unixNow(),
    status,
    model: body.model,
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    incomplete_details: r.truncated && status !== "in_progress" ? { reason: "max_output_tokens" } : null,
    usage: withUsage && !r.noUsage ? usage : null,
  });
  const finalStatus = r.truncated && !tool ? "incomplete" : "completed";
  const doneItem = tool ? callItem("completed", JSON.stringify(tool.arguments)) : item("completed", [part(r.text)]);
  const final = response(finalStatus, [doneItem], true);
  if (!body.stream) return { json: final };
  let sequence = 0;
  const event = (type: string, value: object, text?: string) =>
    sseEvent(type, { type, sequence_number: sequence++, ...value }, text);
  const at = { item_id: itemId, output_index: 0, content_index: 0 };
  const textEvents = () => [
    event("response.output_item.added", { output_index: 0, item: item("in_progress", []) }),
    event("response.content_part.added", { ...at, part: part("") }),
    ...r.pieces.map((delta) => event("response.output_text.delta", { ...at, delta, logprobs: [] }, delta)),
    event("response.output_text.done", { ...at, text: r.text, logprobs: [] }),
    event("response.content_part.done", { ...at, part: part(r.text) }),
  ];
  const toolEvents = (t: FakeToolCall) => [
    event("response.output_item.added", { output_index: 0, item: callItem("in_progress", "") }),
    ...argumentPieces(t).map((delta) =>
      event("response.function_call_arguments.delta", { item_id: itemId, output_index: 0, delta }),
    ),
    event("response.function_call_arguments.done", {
      item_id: itemId,
      output_index: 0,
      arguments: JSON.stringify(t.arguments),
    }),
  ];
  return {
    frames: [
      event("response.created", { response: response("in_progress", [], false) }),
      event("response.in_progress", { response: response("in_progress", [], false) }),
      ...(tool ? toolEvents(tool) : textEvents()),
      event("response.output_item.done", { output_index: 0, item: doneItem }),
      event(finalStatus === "incomplete" ? "response.incomplete" : "response.completed", { response: final }),
    ],
  };
}

const DEFAULT_MODELS = ["gpt-4o-mini", "gpt-4o", "text-embedding-3-small", "whisper-1", "tts-1", "dall-e-3"];

const modelList = ({ options }: FakeCall): FakeReply => ({
  json: {
    object: "list",
    data: (options.models ?? DEFAULT_MODELS).map((id) => ({
      id,
      object: "model",
      created: 1700000000,
      owned_by: "fake",
    })),
  },
});

function subscription({ options }: FakeCall): FakeReply {
  const limit = options.billing?.hardLimitUsd ?? 100;
  return {
    json: {
      object: "billing_subscription",
      has_payment_method: true,
      soft_limit_usd: limit,
      hard_limit_usd: limit,
      system_hard_limit_usd: limit,
      access_until: 0,
    },
  };
}
const billingUsage = ({ options }: FakeCall): FakeReply => ({
  json: { object: "list", total_usage: options.billing?.totalUsageCents ?? 1234 },
});

const OPENAI_ROUTES: Record<string, (call: FakeCall) => FakeReply> = {
  "POST /v1/chat/completions": chatCompletion,
  "POST /v1/completions": textCompletion,
  "POST /v1/embeddings": embeddings,
  "POST /v1/moderations": moderations,
  "POST /v1/images/generations": images,
  "POST /v1/images/edits": images,
  "POST /v1/images/variations": images,
  "POST /v1/audio/speech": speech,
  "POST /v1/audio/transcriptions": transcription,
  "POST /v1/audio/translations": transcription,
  "POST /v1/rerank": rerank,
  "POST /v1/responses": responses,
  "GET /v1/models": modelList,
  "GET /v1/dashboard/billing/subscription": subscription,
  "GET /v1/dashboard/billing/usage": billingUsage,
};

/** Azure's addresses of the same routes: `/openai/deployments/<deployment>/<task>` and `/openai/v1/<task>`. */
const AZURE_PREFIX = /^\/openai\/(?:deployments\/[^/]+|v1)\//;

export const openaiDialect: FakeDialect = {
  model: (_url, body) => (typeof body?.model === "string" ? body.model : undefined),
  authorized: (request, _url, apiKey) => request.headers.get("authorization") === `Bearer ${apiKey}`,
  errorBody: openaiError,
  handle(call) {
    const route = OPENAI_ROUTES[`${call.request.method} ${call.url.pathname.replace(AZURE_PREFIX, "/v1/")}`];
    if (route && call.request.method === "POST" && typeof call.body !== "object") {
      return { json: openaiError(400, "We could not parse the JSON body of your request."), status: 400 };
    }
    return route?.(call);
  },
};

/** A fake OpenAI-compatible upstream on a loopback port. */
export const startFakeUpstream = (options?: FakeUpstreamOptions) => startFakeServer(openaiDialect, options);
