/**
 * Which kind of client made a call, from its User-Agent: the first entry whose marker the lower-cased header
 * contains wins, so a tool built on an SDK (Claude Code on the Anthropic SDK) is listed before that SDK.
 */
const CLIENT_MARKERS: ReadonlyArray<readonly [marker: string, clientType: string]> = [
  ["claude-cli", "claude-code"],
  ["codex", "codex"],
  ["geminicli", "gemini-cli"],
  ["gemini-cli", "gemini-cli"],
  ["openai/", "openai-sdk"],
  ["anthropic/", "anthropic-sdk"],
  ["google-genai", "google-genai"],
  ["curl/", "curl"],
  ["mozilla/", "browser"],
];

/** The client type logged with each call ("unknown" when the client sent no User-Agent). */
export function clientTypeOf(userAgent: string | null | undefined): string {
  if (!userAgent) return "unknown";
  const ua = userAgent.toLowerCase();
  for (const [marker, clientType] of CLIENT_MARKERS) if (ua.includes(marker)) return clientType;
  return "other";
}
