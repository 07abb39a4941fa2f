/** Pivot chunk streams for the Responses stream tests: chat.completion.chunk events, as an upstream sends them. */

const chunk = (fields: Record<string, unknown>) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  model: "gpt-x",
  ...fields,
});
export const delta = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
  chunk({ choices: [{ index: 0, delta, finish_reason }] });
export const usageChunk = (usage: Record<string, unknown>) => chunk({ choices: [], usage });

/** The SSE text of these chunks, ending with `data: [DONE]` unless `done` is false. */
export const sseText = (chunks: unknown[], done = true) =>
  chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");

/** A byte stream of the text, cut into pieces of `size` bytes. */
export function byteStream(text: string, size = Number.POSITIVE_INFINITY): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
      controller.close();
    },
  });
}

export const reasoningTextReply = [
  delta({ role: "assistant", content: "" }),
  delta({ reasoning_content: "Let me " }),
  delta({ reasoning_content: "think." }),
  delta({ content: "Hello" }),
  delta({ content: ", world" }),
  delta({}, "stop"),
  usageChunk({
    prompt_tokens: 20,
    completion_tokens: 9,
    total_tokens: 29,
    prompt_tokens_details: { cached_tokens: 8 },
    completion_tokens_details: { reasoning_tokens: 4 },
  }),
];

/** Two parallel calls whose argument deltas interleave, then usage. */
export const parallelCallsReply = (firstName: string, secondName: string) => [
  delta({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: firstName, arguments: "" } }] }),
  delta({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: secondName, arguments: "" } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
  delta({ tool_calls: [{ index: 1, function: { arguments: '{"input":"*** Begin' } }] }),
  delta({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }),
  delta({ tool_calls: [{ index: 1, function: { arguments: ' Patch"}' } }] }),
  delta({}, "tool_calls"),
  usageChunk({ prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 }),
];
