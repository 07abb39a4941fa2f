import { dueToolCall } from "./fake-tool-call";
import {
  startFakeServer,
  type FakeCall,
  type FakeDialect,
  type FakeReply,
  type FakeUpstreamOptions,
  type Frame,
  type ReplyText,
} from "./fake-upstream";

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  503: "UNAVAILABLE",
};

export const geminiError = (status: number, message: string) => ({
  error: { code: status, message, status: STATUS_NAMES[status] ?? "INTERNAL" },
});

/** `/v1beta/models/{model}:{method}` */
const MODEL_PATH = /^\/v1beta\/models\/([^/:]+):(\w+)$/;

const usageMetadata = (r: ReplyText, candidates: number) => ({
  promptTokenCount: r.promptTokens,
  candidatesTokenCount: candidates,
  totalTokenCount: r.promptTokens + candidates,
  ...(r.cachedTokens !== undefined && { cachedContentTokenCount: r.cachedTokens }),
  ...(r.reasoningTokens !== undefined && { thoughtsTokenCount: r.reasoningTokens }),
});

/** The request's scripted tool call, when this is the turn for it. */
const functionCallDue = ({ body, behavior }: FakeCall) =>
  dueToolCall(
    behavior.toolCall,
    (body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name)),
    (body.contents ?? []).some((c: any) => (c.parts ?? []).some((p: any) => p.functionResponse)),
  );

function generate(call: FakeCall, model: string, stream: boolean): FakeReply {
  const r = call.reply(call.body.generationConfig?.maxOutputTokens);
  const finish = r.truncated ? "MAX_TOKENS" : "STOP";
  const tool = functionCallDue(call);
  const chunk = (part: object, finishReason: string | undefined, candidates: number) => ({
    candidates: [{ content: { parts: [part], role: "model" }, ...(finishReason && { finishReason }), index: 0 }],
    ...(!r.noUsage && { usageMetadata: usageMetadata(r, candidates) }),
    modelVersion: model,
    responseId: `fake-${call.seq}`,
  });
  const whole = tool
    ? chunk({ functionCall: { name: tool.name, args: tool.arguments } }, "STOP", r.completionTokens)
    : chunk({ text: r.text }, finish, r.completionTokens);
  if (!stream) return { json: whole };
  // Usage is cumulative on every chunk; the last one carries the final count and the finish reason.
  const chunks = tool
    ? [whole]
    : r.pieces.map((piece, i) =>
        i === r.pieces.length - 1
          ? chunk({ text: piece }, finish, r.completionTokens)
          : chunk({ text: piece }, undefined, i + 1),
      );
  if (call.url.searchParams.get("alt") !== "sse") return { json: chunks };
  // Google's SSE frames end with CRLF pairs.
  const frames: Frame[] = chunks.map((c, i) => ({
    data: `data: ${JSON.stringify(c)}\r\n\r\n`,
    text: tool ? undefined : r.pieces[i],
  }));
  return { frames };
}

const DEFAULT_MODELS = ["gemini-2.0-flash", "gemini-2.5-flash"];

/** The fake's largest page, small so that clients must follow nextPageToken. */
export const GEMINI_MODEL_PAGE = 2;

/** GET /v1beta/models?pageSize=&pageToken=: a page of the list; the token is opaque to clients. */
const modelList = ({ options, url }: FakeCall): FakeReply => {
  const models = options.models ?? DEFAULT_MODELS;
  const token = url.searchParams.get("pageToken");
  const start = token === null ? 0 : Number(/^page-(\d+)$/.exec(token)?.[1] ?? NaN);
  if (!Number.isInteger(start) || start > models.length)
    return { json: geminiError(400, "Invalid page token."), status: 400 };
  const size = Math.min(Number(url.searchParams.get("pageSize") ?? 50) || 50, GEMINI_MODEL_PAGE);
  const page = models.slice(start, start + size).map((id) => ({
    name: `models/${id}`,
    displayName: id,
    supportedGenerationMethods: ["generateContent", "streamGenerateContent"],
  }));
  return { json: { models: page, ...(start + size < models.length && { nextPageToken: `page-${start + size}` }) } };
};

export const geminiDialect: FakeDialect = {
  model: (url) => MODEL_PATH.exec(url.pathname)?.[1],
  authorized: (request, url, apiKey) =>
    (request.headers.get("x-goog-api-key") ?? url.searchParams.get("key")) === apiKey,
  errorBody: geminiError,
  handle(call) {
    if (call.request.method === "GET" && call.url.pathname === "/v1beta/models") return modelList(call);
    const [, model, method] = MODEL_PATH.exec(call.url.pathname) ?? [];
    if (
      call.request.method !== "POST" ||
      !model ||
      (method !== "generateContent" && method !== "streamGenerateContent")
    )
      return undefined;
    if (typeof call.body !== "object") return { json: geminiError(400, "Invalid JSON payload received."), status: 400 };
    return generate(call, model, method === "streamGenerateContent");
  },
};

/** A fake Gemini API upstream (x-goog-api-key or ?key= auth) on a loopback port. */
export const startFakeGemini = (options?: FakeUpstreamOptions) => startFakeServer(geminiDialect, options);
