import { tokenCount, type TokenCounts } from "../openai-shape";

/**
 * Cohere's usage: `billed_units` is what Cohere charges the account for, `tokens` what the model saw (with its
 * prompt template); billing follows what the upstream bills, and `tokens` only when it names no billed units.
 */
export function countsOf(usage: any): TokenCounts | undefined {
  const billed = usage?.billed_units;
  const seen = usage?.tokens;
  const source = billed?.input_tokens !== undefined || billed?.output_tokens !== undefined ? billed : seen;
  if (source?.input_tokens === undefined && source?.output_tokens === undefined) return undefined;
  return {
    prompt: tokenCount(source.input_tokens),
    completion: tokenCount(source.output_tokens),
    cached: Math.min(tokenCount(usage?.cached_tokens), tokenCount(source.input_tokens)),
  };
}
