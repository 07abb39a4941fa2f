import { tokenCount, type TokenCounts } from "../openai-shape";

/** Counts as the app reported them, under its own names; undefined when it reported none. */
export function appCounts(prompt: unknown, completion: unknown): TokenCounts | undefined {
  if (prompt === undefined && completion === undefined) return undefined;
  return { prompt: tokenCount(prompt), completion: tokenCount(completion), cached: 0 };
}
