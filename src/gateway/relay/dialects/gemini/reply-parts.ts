import { tokenCount } from "../../../../shared/token-count";
import type { PivotUsage } from "./pivot";

/** The pieces of a Gemini reply built from pivot values, shared by whole replies and streams. */

export interface GeminiReplyPart {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name: string; args: Record<string, unknown> };
}

const FINISH: Record<string, string> = {
  stop: "STOP",
  length: "MAX_TOKENS",
  tool_calls: "STOP",
  function_call: "STOP",
  content_filter: "SAFETY",
};

export const finishReasonOf = (reason: string) => FINISH[reason] ?? "OTHER";

/** Gemini counts thoughts apart from the candidates; the pivot counts them inside completion_tokens. */
export function usageMetadataOf(usage: PivotUsage) {
  const prompt = tokenCount(usage.prompt_tokens);
  const completion = tokenCount(usage.completion_tokens);
  const thoughts = Math.min(tokenCount(usage.completion_tokens_details?.reasoning_tokens), completion);
  const cached = tokenCount(usage.prompt_tokens_details?.cached_tokens);
  const metadata: Record<string, number> = {
    promptTokenCount: prompt,
    candidatesTokenCount: completion - thoughts,
    totalTokenCount: prompt + completion,
  };
  if (cached) metadata.cachedContentTokenCount = cached;
  if (thoughts) metadata.thoughtsTokenCount = thoughts;
  return metadata;
}

/** A whole function call; arguments that are not a JSON object are kept under `arguments` rather than lost. */
export function functionCallPart(id: string | undefined, name: string, args: string): GeminiReplyPart {
  let parsed: unknown;
  try {
    parsed = args.trim() ? JSON.parse(args) : {};
  } catch {
    parsed = undefined;
  }
  const object = parsed && typeof parsed === "object" && !Array.isArray(parsed);
  return {
    functionCall: { ...(id && { id }), name, args: object ? (parsed as Record<string, unknown>) : { arguments: args } },
  };
}

/** A candidate; without a finish its finishReason is undefined, which JSON leaves out. */
export function candidate(index: number, parts: GeminiReplyPart[], finish?: string | null) {
  return {
    content: { role: "model", parts },
    finishReason: finish ? finishReasonOf(finish) : undefined,
    index,
  };
}
