import type { PivotUsage } from "../types";

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/**
 * Anthropic's usage as the pivot's: input_tokens exclude the cache reads and writes, OpenAI's prompt_tokens
 * include them (reads as cached_tokens, writes as cached_creation_tokens).
 */
export function pivotUsage(u: any): PivotUsage {
  const cached = count(u?.cache_read_input_tokens);
  const written = count(u?.cache_creation_input_tokens);
  const prompt = count(u?.input_tokens) + cached + written;
  const completion = count(u?.output_tokens);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached, cached_creation_tokens: written },
  };
}

/** The pivot's usage as Anthropic's (the reverse of pivotUsage). */
export function anthropicUsage(u: any) {
  const cached = count(u?.prompt_tokens_details?.cached_tokens);
  const written = count(u?.prompt_tokens_details?.cached_creation_tokens);
  return {
    input_tokens: Math.max(0, count(u?.prompt_tokens) - cached - written),
    output_tokens: count(u?.completion_tokens),
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: written,
  };
}
