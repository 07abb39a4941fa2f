/**
 * The calls the relay bench drives: the same one-word question in each client dialect, with the header that
 * carries the key in that dialect. Translated calls reach a channel of another family; the same-dialect chat
 * stream is what they are held against.
 */
export const MODEL = "bench-model";
/** Served only by the bench's Anthropic channel, so a call of it is translated to Anthropic Messages. */
export const CLAUDE_MODEL = "bench-claude";
export const CHAT_PATH = "/v1/chat/completions";

export interface BenchCall {
  /** What the call is, as printed. */
  name: string;
  path: string;
  body: string;
  /** The header that carries the key bare; without it the key goes as `Authorization: Bearer`. */
  keyHeader?: string;
}

/**
 * A chat request; `promptBytes` > 0 makes its message that long (words of a few letters, as a prompt has). `model`:
 * the bench's model (an OpenAI channel) by default.
 */
export const chatBody = (stream: boolean, promptBytes = 0, model = MODEL) =>
  JSON.stringify({
    model,
    messages: [{ role: "user", content: promptBytes > 0 ? "lorem ipsum ".repeat(promptBytes / 12) : "hi" }],
    ...(stream && { stream: true }),
  });

export const CHAT: BenchCall = { name: "OpenAI chat", path: CHAT_PATH, body: chatBody(false) };
export const CHAT_STREAM: BenchCall = { name: "OpenAI chat stream", path: CHAT_PATH, body: chatBody(true) };

/** Anthropic Messages inbound, through the OpenAI channel. */
export const ANTHROPIC_STREAM: BenchCall = {
  name: "Anthropic stream → OpenAI channel",
  path: "/v1/messages",
  body: JSON.stringify({ model: MODEL, max_tokens: 256, messages: [{ role: "user", content: "hi" }], stream: true }),
  keyHeader: "x-api-key",
};

/** Gemini inbound (SSE form), through the Anthropic channel. */
export const GEMINI_STREAM: BenchCall = {
  name: "Gemini stream → Anthropic channel",
  path: `/v1beta/models/${CLAUDE_MODEL}:streamGenerateContent?alt=sse`,
  body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
  keyHeader: "x-goog-api-key",
};

export const TRANSLATED_STREAMS = [ANTHROPIC_STREAM, GEMINI_STREAM];

/** The request headers of a call with a key ("" for targets without auth). */
export function callHeaders(call: BenchCall, key: string): Record<string, string> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (key) headers[call.keyHeader ?? "Authorization"] = call.keyHeader ? key : `Bearer ${key}`;
  return headers;
}
