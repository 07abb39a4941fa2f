import { invalidRequest } from "../../../../shared/relay-error";
import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import { mapEventStream, parseEvent, type EventMapper } from "../event-stream";
import {
  ChunkWriter,
  chatCompletion,
  chatTurns,
  isNumber,
  stopList,
  tokenCount,
  type FinishReason,
  type Part,
  type TokenCounts,
} from "../openai-shape";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { DEFAULT_VERSION, geminiHeaders, geminiVersionOf } from "./address";
import { geminiModels } from "./models";

const FAMILY = "Gemini";

const FILTERED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"]);
function finishOf(reason: unknown): FinishReason {
  if (reason === "MAX_TOKENS") return "length";
  return FILTERED.has(String(reason)) ? "content_filter" : "stop";
}

function geminiPart(p: Part): object {
  if ("text" in p) return { text: p.text };
  if ("image" in p) return { inlineData: { mimeType: p.image.mediaType, data: p.image.data } };
  throw invalidRequest(`${FAMILY} channels take images as base64 data: URLs, not links`);
}

/** The generateContent body for an OpenAI chat request. */
export function generateContentBody(body: Record<string, any>): Record<string, unknown> {
  const { system, turns } = chatTurns(body, FAMILY);
  const contents = turns.map((t) => ({
    role: t.role === "assistant" ? "model" : "user",
    parts: t.parts.map(geminiPart),
  }));
  const config: Record<string, unknown> = {};
  const maxTokens = tokenCount(body.max_completion_tokens) || tokenCount(body.max_tokens);
  if (maxTokens) config.maxOutputTokens = maxTokens;
  if (isNumber(body.temperature)) config.temperature = body.temperature;
  if (isNumber(body.top_p)) config.topP = body.top_p;
  const stop = stopList(body.stop);
  if (stop) config.stopSequences = stop;
  const out: Record<string, unknown> = { contents };
  if (system) out.systemInstruction = { parts: [{ text: system }] };
  if (Object.keys(config).length) out.generationConfig = config;
  return out;
}

/** promptTokenCount includes cached content (and tool-use prompts count as prompt); thoughts are output. */
function countsOf(u: any): TokenCounts {
  const reasoning = tokenCount(u?.thoughtsTokenCount);
  return {
    prompt: tokenCount(u?.promptTokenCount) + tokenCount(u?.toolUsePromptTokenCount),
    completion: tokenCount(u?.candidatesTokenCount) + reasoning,
    cached: tokenCount(u?.cachedContentTokenCount),
    reasoning,
  };
}

/** A candidate's text and thoughts (parts marked `thought`). */
function textsOf(candidate: any): { content: string; reasoning: string } {
  let content = "";
  let reasoning = "";
  for (const part of Array.isArray(candidate?.content?.parts) ? candidate.content.parts : []) {
    if (typeof part?.text !== "string") continue;
    if (part.thought === true) reasoning += part.text;
    else content += part.text;
  }
  return { content, reasoning };
}

function mapGenerateContent(reply: any, model: string) {
  const candidates: any[] = Array.isArray(reply?.candidates) ? reply.candidates : [];
  // A blocked prompt answers no candidate at all, only promptFeedback.blockReason.
  const choices = candidates.length
    ? candidates.map((c) => ({ ...textsOf(c), finish: finishOf(c?.finishReason) }))
    : [
        {
          content: "",
          reasoning: "",
          finish: (reply?.promptFeedback?.blockReason ? "content_filter" : "stop") as FinishReason,
        },
      ];
  return chatCompletion({
    id: `chatcmpl-${reply?.responseId ?? crypto.randomUUID()}`,
    model: reply?.modelVersion ?? model,
    choices,
    usage: reply?.usageMetadata ? countsOf(reply.usageMetadata) : undefined,
  });
}

/**
 * Each chunk carries its text and the usage so far; the last one the finish reason and the final usage.
 * The stream has no end marker: a clean end of the body is the end, then come usage and [DONE].
 */
function streamMapper(model: string): EventMapper {
  const out = new ChunkWriter(`chatcmpl-${crypto.randomUUID()}`, model);
  let usage: any;
  let seen = false;
  return {
    event(data) {
      const e = parseEvent(data);
      if (!e) return "";
      if (e.error)
        return out.error(
          String(e.error.message ?? "upstream stream error"),
          String(e.error.status ?? "upstream_error"),
        );
      if (!seen && e.responseId) out.id = `chatcmpl-${e.responseId}`;
      if (e.modelVersion) out.model = e.modelVersion;
      seen = true;
      if (e.usageMetadata) usage = e.usageMetadata;
      const candidate = e.candidates?.[0];
      const { content, reasoning } = textsOf(candidate);
      const blocked = !candidate && e.promptFeedback?.blockReason;
      const finish = candidate?.finishReason ? finishOf(candidate.finishReason) : blocked ? "content_filter" : null;
      return out.delta(content, reasoning, finish);
    },
    end: () => (seen ? (usage ? out.usage(countsOf(usage)) : "") + out.done() : ""),
  };
}

/**
 * Gemini API: `<base>/<version>/models/<model>:generateContent` (`:streamGenerateContent?alt=sse` for
 * streams), the key in the `x-goog-api-key` header (kept out of the URL); chat only.
 */
export const geminiProvider: Provider = {
  types: [24],
  otherDefault: DEFAULT_VERSION,
  endpoints: new Set(["chat"]),
  request(channel: ProviderChannel, call: UpstreamCall) {
    const json = call.json ?? JSON.parse(String(call.body));
    const version = geminiVersionOf(channel);
    const model = encodeURIComponent(call.model.replace(/^models\//, ""));
    const method = call.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    return {
      url: `${channelBaseUrl(channel)}/${version}/models/${model}:${method}`,
      headers: { ...geminiHeaders(channel), "content-type": "application/json" },
      body: JSON.stringify(generateContentBody(json)),
    };
  },
  mapResponse: mapGenerateContent,
  mapStream: (upstream, model) => mapEventStream(upstream, streamMapper(model)),
  errorOf: openaiErrorOf,
  models: geminiModels,
};
