import { chatCompletion, tokenCount, type FinishReason, type TokenCounts } from "../openai-shape";

const FINISH: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};
export const finishOf = (reason: unknown): FinishReason => FINISH[String(reason)] ?? "stop";

/**
 * Claude's input_tokens exclude the prompt-cache reads and writes; OpenAI's prompt_tokens include them,
 * with the reads as cached_tokens (billed at the cache ratio) and the writes as cached_creation_tokens (billed
 * at the create-cache ratio). Claude does not count thinking tokens apart: they are inside output_tokens.
 */
export function countsOf(u: any): TokenCounts {
  const cached = tokenCount(u?.cache_read_input_tokens);
  const cacheWrite = tokenCount(u?.cache_creation_input_tokens);
  return {
    prompt: tokenCount(u?.input_tokens) + cached + cacheWrite,
    completion: tokenCount(u?.output_tokens),
    cached,
    cacheWrite,
  };
}

/** A Messages API reply as a chat.completion: text, thinking as reasoning_content, tool_use blocks as tool_calls. */
export function mapMessage(reply: any, model: string) {
  let content = "";
  let reasoning = "";
  const toolCalls = [];
  for (const block of Array.isArray(reply?.content) ? reply.content : []) {
    if (block?.type === "text") content += block.text ?? "";
    else if (block?.type === "thinking") reasoning += block.thinking ?? "";
    else if (block?.type === "tool_use")
      toolCalls.push({ id: String(block.id), name: String(block.name), arguments: JSON.stringify(block.input ?? {}) });
  }
  return chatCompletion({
    id: `chatcmpl-${reply?.id ?? crypto.randomUUID()}`,
    model: reply?.model ?? model,
    choices: [{ content, reasoning, toolCalls, finish: finishOf(reply?.stop_reason) }],
    usage: reply?.usage ? countsOf(reply.usage) : undefined,
  });
}
