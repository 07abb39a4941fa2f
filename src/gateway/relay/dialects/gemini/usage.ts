import { tokenCount } from "../../../../shared/token-count";
import type { PivotUsage } from "../types";

/**
 * Gemini's usageMetadata as the pivot's usage: thoughts are counted apart from the candidates there and inside
 * completion_tokens in the pivot; cached content is part of the prompt in both.
 */
export function pivotUsageOf(meta: any): PivotUsage {
  const prompt = tokenCount(meta?.promptTokenCount) + tokenCount(meta?.toolUsePromptTokenCount);
  const thoughts = tokenCount(meta?.thoughtsTokenCount);
  const completion = tokenCount(meta?.candidatesTokenCount) + thoughts;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: tokenCount(meta?.cachedContentTokenCount) },
    completion_tokens_details: { reasoning_tokens: thoughts },
  };
}
