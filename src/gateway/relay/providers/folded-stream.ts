import { RelayError } from "../../../shared/relay-error";
import { eventData, SseSplitter } from "../sse";
import { chatCompletion, type FinishReason, type ReplyToolCall } from "./openai-shape";

/** Reads a mapped OpenAI chunk stream (a family's mapStream output) to its end: its events' data, parsed. */
async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<any[]> {
  const splitter = new SseSplitter();
  const chunks: any[] = [];
  const take = (events: string[]) => {
    for (const event of events) {
      const data = eventData(event);
      if (data && data !== "[DONE]") chunks.push(JSON.parse(data));
    }
  };
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    take(splitter.push(value));
  }
  take(splitter.rest());
  return chunks;
}

/**
 * One chat.completion from a mapped chunk stream, for a family whose upstream answers only as a stream (the
 * client asked for a whole reply): content, reasoning and tool calls added up, the last finish reason, the usage.
 */
export async function foldChatStream(stream: ReadableStream<Uint8Array>, model: string) {
  let id = "";
  let content = "";
  let reasoning = "";
  let finish: FinishReason = "stop";
  let usage: any;
  const calls: ReplyToolCall[] = [];
  for (const chunk of await chunksOf(stream)) {
    if (chunk.error)
      throw new RelayError(502, String(chunk.error.message ?? "upstream error"), "upstream_error", "upstream_error");
    id ||= chunk.id ?? "";
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    content += choice?.delta?.content ?? "";
    reasoning += choice?.delta?.reasoning_content ?? "";
    if (choice?.finish_reason) finish = choice.finish_reason;
    for (const d of choice?.delta?.tool_calls ?? []) {
      calls[d.index] ??= { id: "", name: "", arguments: "" };
      if (d.id) calls[d.index]!.id = d.id;
      if (d.function?.name) calls[d.index]!.name = d.function.name;
      calls[d.index]!.arguments += d.function?.arguments ?? "";
    }
  }
  if (!id) throw new RelayError(502, "the upstream's stream held no reply", "bad_response_body", "upstream_error");
  const reply: Record<string, unknown> = chatCompletion({
    id,
    model,
    choices: [{ content, reasoning, finish, toolCalls: calls.filter(Boolean) }],
  });
  if (usage) reply.usage = usage;
  return reply;
}
