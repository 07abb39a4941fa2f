import { chatPromptParts, countParts, countPartsOffThread, inputParts, type PromptParts } from "../billing/estimate";
import type { Usage } from "../billing/quota";
import type { EndpointKind } from "../../shared/endpoint-kind";
import { tokenCount } from "../../shared/token-count";

export type { EndpointKind };
export { tokenCount };

export interface Endpoint {
  kind: EndpointKind;
  /** Used when the body names no model. */
  defaultModel?: string;
  /** Form data in (audio and image uploads) rather than JSON. */
  multipart?: boolean;
  /** May answer as an event stream. */
  streams?: boolean;
}

export const ENDPOINTS: Record<string, Endpoint> = {
  "/v1/chat/completions": { kind: "chat", streams: true },
  "/v1/completions": { kind: "completions", streams: true },
  "/v1/embeddings": { kind: "embeddings" },
  "/v1/moderations": { kind: "moderations", defaultModel: "omni-moderation-latest" },
  "/v1/images/generations": { kind: "images", defaultModel: "dall-e-3" },
  "/v1/images/edits": { kind: "images", defaultModel: "dall-e-2", multipart: true },
  "/v1/images/variations": { kind: "images", defaultModel: "dall-e-2", multipart: true },
  "/v1/audio/speech": { kind: "speech", defaultModel: "tts-1" },
  "/v1/audio/transcriptions": { kind: "transcriptions", defaultModel: "whisper-1", multipart: true },
  "/v1/audio/translations": { kind: "transcriptions", defaultModel: "whisper-1", multipart: true },
  "/v1/rerank": { kind: "rerank" },
};

type Body = Record<string, any>;

const positive = (...values: unknown[]) => {
  for (const v of values) if (typeof v === "number" && Number.isFinite(v) && v > 0) return Math.floor(v);
  return 0;
};

/** The completion budget the client set (max_tokens and its aliases), 0 when none. */
export function completionBudget(kind: EndpointKind, body: Body): number {
  if (kind === "chat") return positive(body.max_completion_tokens, body.max_tokens);
  if (kind === "completions") return positive(body.max_tokens);
  if (kind === "responses") return positive(body.max_output_tokens);
  return 0;
}

/** What a prompt's token estimate counts: its texts and its fixed costs (compat §5.2 framing for chat). */
export function promptParts(kind: EndpointKind, body: Body): PromptParts {
  switch (kind) {
    case "chat":
      return chatPromptParts(Array.isArray(body.messages) ? body.messages : [], body.tools);
    case "completions":
      return inputParts(body.prompt ?? "");
    case "responses":
      return inputParts(typeof body.input === "string" ? body.input : JSON.stringify(body.input ?? ""));
    case "embeddings":
    case "moderations":
      return inputParts(body.input ?? "");
    case "speech":
      return inputParts(String(body.input ?? ""));
    case "rerank":
      return inputParts([
        String(body.query ?? ""),
        ...(Array.isArray(body.documents) ? body.documents.map(String) : []),
      ]);
    default:
      return { texts: [], fixed: 0 };
  }
}

/** The prompt's size in tokens, counted with a real tokenizer in bounded work. */
export const estimatePromptTokens = (kind: EndpointKind, model: string, body: Body) =>
  countParts(model, promptParts(kind, body));

/** The same, for a caller that can await it (a count_tokens route): counted exactly up to a million characters. */
export const promptTokensOffThread = (kind: EndpointKind, model: string, body: Body) =>
  countPartsOffThread(model, promptParts(kind, body));

const MEDIA_PART = /"(image_url|input_image|input_audio|input_file|file|image)"/;

/**
 * Whether the prompt estimate cannot exceed `tokens`, judged from the raw JSON alone: every token is at
 * least one byte of its text, and the JSON around each message and tool is longer than its framing
 * tokens; media parts (priced at fixed token counts) are the exception, so their presence says no.
 */
export function promptFitsIn(rawJson: string, tokens: number): boolean {
  return rawJson.length <= tokens && Buffer.byteLength(rawJson) <= tokens && !MEDIA_PART.test(rawJson);
}

const num = tokenCount;

/** The usage an upstream reported in a JSON reply (or one stream event), if it reported any. */
export function reportedUsage(kind: EndpointKind, reply: Body | null | undefined): Usage | undefined {
  const u = reply?.usage;
  if (!u || typeof u !== "object") return undefined;
  if (kind === "responses") {
    return {
      promptTokens: num(u.input_tokens),
      completionTokens: num(u.output_tokens),
      cachedTokens: num(u.input_tokens_details?.cached_tokens),
    };
  }
  if (kind === "rerank" && u.prompt_tokens === undefined) {
    return { promptTokens: num(u.total_tokens), completionTokens: 0, cachedTokens: 0 };
  }
  if (u.prompt_tokens === undefined && u.completion_tokens === undefined) return undefined;
  return {
    promptTokens: num(u.prompt_tokens),
    completionTokens: num(u.completion_tokens),
    cachedTokens: num(u.prompt_tokens_details?.cached_tokens),
    cacheWriteTokens: num(u.prompt_tokens_details?.cached_creation_tokens),
  };
}

/** Text the upstream generated in a JSON reply, to count when it reported no usage. */
export function generatedText(kind: EndpointKind, reply: Body | null | undefined): string {
  if (!reply) return "";
  if (kind === "chat") {
    return (reply.choices ?? [])
      .map((c: Body) => `${c.message?.content ?? ""}${c.message?.reasoning_content ?? ""}`)
      .join("");
  }
  if (kind === "completions") return (reply.choices ?? []).map((c: Body) => c.text ?? "").join("");
  if (kind === "transcriptions") return String(reply.text ?? "");
  if (kind === "responses") return String(reply.output_text ?? "");
  return "";
}

/** Text carried by one stream event (chat and completion chunks, Responses deltas). */
export function streamedText(kind: EndpointKind, event: Body): string {
  if (kind === "responses") return event.type === "response.output_text.delta" ? String(event.delta ?? "") : "";
  let text = "";
  for (const choice of event.choices ?? []) {
    text +=
      kind === "chat" ? `${choice.delta?.content ?? ""}${choice.delta?.reasoning_content ?? ""}` : (choice.text ?? "");
  }
  return text;
}

/** Usage inside one stream event: chat/completion chunks carry `usage`; Responses put it on response.completed. */
export function streamedUsage(kind: EndpointKind, event: Body): Usage | undefined {
  if (kind === "responses")
    return event.type === "response.completed" ? reportedUsage(kind, event.response) : undefined;
  return reportedUsage(kind, event);
}
