import { argumentPieces, dueToolCall, toolCallId } from "./fake-tool-call";
import {
  sseEvent,
  startFakeServer,
  type FakeCall,
  type FakeDialect,
  type FakeReply,
  type FakeToolCall,
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

const hasToolResult = (messages: any[] = []) =>
  messages.some((m) => Array.isArray(m.content) && m.content.some((block: any) => block.type === "tool_result"));

/** The request's scripted tool call, when this is the turn for it. */
const messagesToolCall = ({ body, behavior }: FakeCall) =>
  dueToolCall(
    behavior.toolCall,
    (body.tools ?? []).map((t: any) => t.name),
    hasToolResult(body.messages),
  );

const toolUse = (t: FakeToolCall, seq: number, input: unknown) => ({
  type: "tool_use",
  id: toolCallId(seq).replace("call_", "toolu_"),
  name: t.name,
  input,
});

function messages(call: FakeCall): FakeReply {
  const { body, reply, seq } = call;
  const r = reply(body.max_tokens);
  const tool = messagesToolCall(call);
  const stopReason = tool ? "tool_use" : r.truncated ? "max_tokens" : "end_turn";
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
  const content = tool ? [toolUse(tool, seq, tool.arguments)] : [{ type: "text", text: r.text }];
  if (!body.stream) return { json: message(content, stopReason, usageOf(r)) };
  const event = (type: string, value: object, text?: string) => sseEvent(type, { type, ...value }, text);
  const delta = (value: object, text?: string) => event("content_block_delta", { index: 0, delta: value }, text);
  const blockFrames = tool
    ? [
        event("content_block_start", { index: 0, content_block: toolUse(tool, seq, {}) }),
        ...argumentPieces(tool).map((partial_json) => delta({ type: "input_json_delta", partial_json })),
      ]
    : [
        event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
        event("ping", {}),
        ...r.pieces.map((text) => delta({ type: "text_delta", text }, text)),
      ];
  return {
    frames: [
      event("message_start", { message: message([], null, usageOf(r, 1)) }),
      ...blockFrames,
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
  // @anthropic-ai/sdk 1.x sends its apiKey as a Bearer token; Claude Code and older SDKs use x-api-key.
  authorized: (request, _url, apiKey) =>
    request.headers.get("x-api-key") === apiKey || request.headers.get("authorization") === `Bearer ${apiKey}`,
  errorBody: anthropicError,
  handle(call) {
    const route = `${call.request.method} ${call.url.pathname}`;
    if (route === "GET /v1/models") return modelList(call);
    if (route !== "POST /v1/messages") return undefined;
    if (typeof call.body !== "object") return { json: anthropicError(400, "messages: invalid JSON body"), status: 400 };
    return messages(call);
  },
};

/** A fake Anthropic Messages API upstream (x-api-key or Bearer auth) on a loopback port. */
export const startFakeAnthropic = (options?: FakeUpstreamOptions) => startFakeServer(anthropicDialect, options);
