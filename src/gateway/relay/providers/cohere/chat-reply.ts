import { chatCompletion, type FinishReason, type ReplyToolCall } from "../openai-shape";
import { countsOf } from "./usage";

const FINISH: Record<string, FinishReason> = {
  COMPLETE: "stop",
  STOP_SEQUENCE: "stop",
  MAX_TOKENS: "length",
  TOOL_CALL: "tool_calls",
};
export const finishOf = (reason: unknown): FinishReason => FINISH[String(reason)] ?? "stop";

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : (Array.isArray(content) ? content : []).map((c: any) => (c?.type === "text" ? (c.text ?? "") : "")).join("");

/** A /v2/chat reply as a chat.completion: text parts joined, tool calls as OpenAI's, the tool plan as reasoning. */
export function mapChat(reply: any, model: string) {
  const message = reply?.message ?? {};
  const toolCalls: ReplyToolCall[] = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((c: any) => ({
    id: String(c?.id ?? ""),
    name: String(c?.function?.name ?? ""),
    arguments:
      typeof c?.function?.arguments === "string" ? c.function.arguments : JSON.stringify(c?.function?.arguments ?? {}),
  }));
  return chatCompletion({
    id: `chatcmpl-${reply?.id ?? crypto.randomUUID()}`,
    model,
    choices: [
      {
        content: textOf(message.content),
        reasoning: typeof message.tool_plan === "string" ? message.tool_plan : "",
        toolCalls,
        finish: finishOf(reply?.finish_reason),
      },
    ],
    usage: countsOf(reply?.usage),
  });
}
