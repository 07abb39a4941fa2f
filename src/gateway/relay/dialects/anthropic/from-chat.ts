import { messageIdOf, stopReasonOf } from "./stop-reason";
import { anthropicUsage } from "./usage";

/** A tool call's arguments as the tool_use input object ({} for none; unparseable JSON kept under `arguments`). */
export function toolInput(args: unknown): unknown {
  if (typeof args !== "string" || args.trim() === "") return {};
  try {
    return JSON.parse(args);
  } catch {
    return { arguments: args };
  }
}

/** A pivot reply (chat.completion) as an Anthropic Messages reply: thinking, text, then tool_use blocks. */
export function chatToAnthropic(reply: Record<string, any>, model: string) {
  const choice = Array.isArray(reply.choices) ? reply.choices[0] : undefined;
  const message = choice?.message ?? {};
  const content: Record<string, unknown>[] = [];
  if (typeof message.reasoning_content === "string" && message.reasoning_content) {
    content.push({ type: "thinking", thinking: message.reasoning_content, signature: "" });
  }
  if (typeof message.content === "string" && message.content) content.push({ type: "text", text: message.content });
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    content.push({
      type: "tool_use",
      id: String(call?.id ?? ""),
      name: String(call?.function?.name ?? ""),
      input: toolInput(call?.function?.arguments),
    });
  }
  return {
    id: messageIdOf(reply.id),
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReasonOf(choice?.finish_reason),
    stop_sequence: null,
    usage: anthropicUsage(reply.usage),
  };
}
