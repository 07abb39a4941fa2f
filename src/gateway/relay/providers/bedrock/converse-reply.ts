import { chatCompletion, tokenCount, type FinishReason, type TokenCounts } from "../openai-shape";

const FINISH: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  guardrail_intervened: "content_filter",
  content_filtered: "content_filter",
};
export const converseFinishOf = (reason: unknown): FinishReason => FINISH[String(reason)] ?? "stop";

/**
 * Converse's inputTokens exclude the prompt-cache reads and writes (totalTokens adds them); OpenAI's
 * prompt_tokens include them, the reads as cached_tokens and the writes as cached_creation_tokens.
 */
export function converseCounts(u: any): TokenCounts {
  const cached = tokenCount(u?.cacheReadInputTokens);
  const cacheWrite = tokenCount(u?.cacheWriteInputTokens);
  return {
    prompt: tokenCount(u?.inputTokens) + cached + cacheWrite,
    completion: tokenCount(u?.outputTokens),
    cached,
    cacheWrite,
  };
}

/** A Converse reply as a chat.completion: text, reasoning text as reasoning_content, toolUse blocks as tool_calls. */
export function mapConverse(reply: any, model: string) {
  let content = "";
  let reasoning = "";
  const toolCalls = [];
  const blocks = reply?.output?.message?.content;
  for (const block of Array.isArray(blocks) ? blocks : []) {
    if (typeof block?.text === "string") content += block.text;
    else if (block?.reasoningContent?.reasoningText) reasoning += block.reasoningContent.reasoningText.text ?? "";
    else if (block?.toolUse)
      toolCalls.push({
        id: String(block.toolUse.toolUseId),
        name: String(block.toolUse.name),
        arguments: JSON.stringify(block.toolUse.input ?? {}),
      });
  }
  return chatCompletion({
    id: `chatcmpl-${crypto.randomUUID()}`,
    model,
    choices: [{ content, reasoning, toolCalls, finish: converseFinishOf(reply?.stopReason) }],
    usage: reply?.usage ? converseCounts(reply.usage) : undefined,
  });
}
