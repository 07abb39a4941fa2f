import { callIdOf } from "./call-signature";
import { chatCompletion, tokenCount, type FinishReason, type ReplyToolCall, type TokenCounts } from "../openai-shape";

const FILTERED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"]);
/** Gemini says STOP after function calls too; OpenAI's clients look for tool_calls then. */
export function finishOf(reason: unknown, calledTools: boolean): FinishReason {
  if (reason === "MAX_TOKENS") return "length";
  if (FILTERED.has(String(reason))) return "content_filter";
  return calledTools ? "tool_calls" : "stop";
}

/** promptTokenCount includes cached content (and tool-use prompts count as prompt); thoughts are output. */
export function countsOf(u: any): TokenCounts {
  const reasoning = tokenCount(u?.thoughtsTokenCount);
  return {
    prompt: tokenCount(u?.promptTokenCount) + tokenCount(u?.toolUsePromptTokenCount),
    completion: tokenCount(u?.candidatesTokenCount) + reasoning,
    cached: tokenCount(u?.cachedContentTokenCount),
    reasoning,
  };
}

/** A candidate's text, thoughts (parts marked `thought`) and function calls. */
export function partsOfCandidate(candidate: any): { content: string; reasoning: string; toolCalls: ReplyToolCall[] } {
  let content = "";
  let reasoning = "";
  const toolCalls: ReplyToolCall[] = [];
  for (const part of Array.isArray(candidate?.content?.parts) ? candidate.content.parts : []) {
    if (part?.functionCall)
      toolCalls.push({
        id: callIdOf(part),
        name: String(part.functionCall.name),
        arguments: JSON.stringify(part.functionCall.args ?? {}),
      });
    else if (typeof part?.text !== "string") continue;
    else if (part.thought === true) reasoning += part.text;
    else content += part.text;
  }
  return { content, reasoning, toolCalls };
}

export function mapGenerateContent(reply: any, model: string) {
  const candidates: any[] = Array.isArray(reply?.candidates) ? reply.candidates : [];
  // A blocked prompt answers no candidate at all, only promptFeedback.blockReason.
  const choices = candidates.length
    ? candidates.map((c) => {
        const parts = partsOfCandidate(c);
        return { ...parts, finish: finishOf(c?.finishReason, parts.toolCalls.length > 0) };
      })
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
