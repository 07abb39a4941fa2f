import type { PivotReply } from "./pivot";
import { candidate, functionCallPart, type GeminiReplyPart, usageMetadataOf } from "./reply-parts";

/** A pivot chat completion as Gemini's GenerateContentResponse. */
export function chatToGemini(reply: PivotReply, options: { includeThoughts: boolean; model: string }) {
  return {
    candidates: (reply.choices ?? []).map((choice, at) => {
      const message = choice.message ?? {};
      const parts: GeminiReplyPart[] = [];
      if (options.includeThoughts && message.reasoning_content)
        parts.push({ text: message.reasoning_content, thought: true });
      const text = textOf(message.content);
      if (text) parts.push({ text });
      for (const call of message.tool_calls ?? []) {
        parts.push(functionCallPart(call.id, call.function?.name ?? "", call.function?.arguments ?? ""));
      }
      return candidate(choice.index ?? at, parts, choice.finish_reason ?? "stop");
    }),
    ...(reply.usage && { usageMetadata: usageMetadataOf(reply.usage) }),
    modelVersion: reply.model || options.model,
    ...(reply.id && { responseId: reply.id }),
  };
}

/** A message's content: a string, or an array of text parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
}
