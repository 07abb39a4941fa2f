/**
 * How the upstream families that do not speak OpenAI's dialect are addressed and authenticated: pure
 * facts shared by the relay's providers (src/gateway/relay/providers) and the service's upstream calls
 * (listing models), so neither layer writes them again.
 */

/** Channel type numbers (compat §8.1). */
export const ANTHROPIC_TYPE = 14;
export const GEMINI_TYPE = 24;

/** A channel created from several keys holds one per line; a single call uses its first. */
export const firstKeyOf = (key: string): string => key.split("\n")[0]!.trim();

/** Anthropic's API: the key in `x-api-key`, the API version in `anthropic-version`. */
export const anthropicHeaders = (key: string): Record<string, string> => ({ "x-api-key": key, "anthropic-version": "2023-06-01" });

/** Gemini's API: the key in `x-goog-api-key` (kept out of the URL). */
export const geminiHeaders = (key: string): Record<string, string> => ({ "x-goog-api-key": key });

/** A Gemini channel's `other` names the API version, as for the dialect; v1beta when it is empty. */
export const geminiVersionOf = (other: string | undefined): string => other?.trim() || "v1beta";
