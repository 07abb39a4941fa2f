import {
  sseEvent,
  startFakeServer,
  type FakeCall,
  type FakeDialect,
  type FakeReply,
  type FakeUpstreamOptions,
  type ReplyText,
} from "./fake-upstream";

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

export const anthropicError = (status: number, message: string) => ({
  type: "error",
  error: { type: ERROR_TYPES[status] ?? "api_error", message },
});

const usageOf = (r: ReplyText, outputTokens = r.completionTokens) => ({
  input_tokens: r.promptTokens,
  cache_creation_input_tokens: r.cacheWriteTokens ?? 0,
  cache_read_input_tokens: r.cachedTokens ?? 0,
  output_tokens: outputTokens,
});

function messages({ body, reply, seq }: FakeCall): FakeReply {
  const r = reply(body.max_tokens);
  const stopReason = r.truncated ? "max_tokens" : "end_turn";
  const message = (content: unknown[], stop: string | null, usage: object) => ({
    id: `msg_fake_${seq}`,
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    ...(!r.noUsage && { usage }),
  });
  if (!body.stream) return { json: message([{ type: "text", text: r.text }], stopReason, usageOf(r)) };
  const event = (type: string, value: object, text?: string) => sseEvent(type, { type, ...value }, text);
  return {
    frames: [
      event("message_start", { message: message([], null, usageOf(r, 1)) }),
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      event("ping", {}),
      ...r.pieces.map((text) => event("content_block_delta", { index: 0, delta: { type: "text_delta", text } }, text)),
      event("content_block_stop", { index: 0 }),
      event("message_delta", {
        delta: { stop_reason: stopReason, stop_sequence: null },
        ...(!r.noUsage && { usage: { output_tokens: r.completionTokens } }),
      }),
      event("message_stop", {}),
    ],
  };
}

const DEFAULT_MODELS = ["claude-sonnet-4-20250514", "claude-3-5-haiku-20241022"];

/** The fake's largest page, small so that clients must follow has_more. */
export const ANTHROPIC_MODEL_PAGE = 2;

/** GET /v1/models?after_id=&limit=: a page of the list after the model named. */
const modelList = ({ options, url }: FakeCall): FakeReply => {
  const models = options.models ?? DEFAULT_MODELS;
  const after = url.searchParams.get("after_id");
  const start = after === null ? 0 : models.indexOf(after) + 1;
  if (start === 0 && after !== null)
    return { json: anthropicError(400, `after_id: unknown model ${after}`), status: 400 };
  const limit = Math.min(Number(url.searchParams.get("limit") ?? 20) || 20, ANTHROPIC_MODEL_PAGE);
  const data = models
    .slice(start, start + limit)
    .map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }));
  return {
    json: {
      data,
      has_more: start + limit < models.length,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
    },
  };
};

export const anthropicDialect: FakeDialect = {
  model: (_url, body) => (typeof body?.model === "string" ? body.model : undefined),
  authorized: (request, _url, apiKey) => request.headers.get("x-api-key") === apiKey,
  errorBody: anthropicError,
  handle(call) {
    const route = `${call.request.method} ${call.url.pathname}`;
    if (route === "GET /v1/models") return modelList(call);
    if (route !== "POST /v1/messages") return undefined;
    if (typeof call.body !== "object") return { json: anthropicError(400, "messages: invalid JSON body"), status: 400 };
    return messages(call);
  },
};

/** A fake Anthropic Messages API upstream (x-api-key auth) on a loopback port. */
export const startFakeAnthropic = (options?: FakeUpstreamOptions) => startFakeServer(anthropicDialect, options);
