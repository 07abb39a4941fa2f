import type { UpstreamError } from "./types";

/**
 * OpenAI's error reply {error: {message, type, code}}, which also reads Anthropic's {type: "error", error: {type,
 * message}}, Gemini's {error: {code, message, status}} and a bare {message} or error string.
 */
export function openaiErrorOf(reply: any): UpstreamError {
  const error = reply?.error ?? reply;
  const found: UpstreamError = {};
  if (typeof error?.message === "string") found.message = error.message;
  else if (typeof error === "string") found.message = error;
  if (error?.code !== undefined && error?.code !== null) found.code = String(error.code);
  if (typeof error?.type === "string" && error.type) found.type = error.type;
  return found;
}
