/** The pivot's finish_reason as Anthropic's stop_reason. */
const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  function_call: "tool_use",
  content_filter: "refusal",
};

export const stopReasonOf = (finish: unknown): string => STOP_REASONS[String(finish)] ?? "end_turn";

/** A message id in Anthropic's form, from the pivot's chatcmpl-… id. */
export const messageIdOf = (id: unknown): string =>
  `msg_${typeof id === "string" && id ? id.replace(/^chatcmpl-/, "") : crypto.randomUUID().replaceAll("-", "")}`;
