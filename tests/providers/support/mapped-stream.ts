import type { EventMapper } from "../../../src/gateway/relay/providers/event-stream";
import { mapEventStream } from "../../../src/gateway/relay/providers/event-stream";

/** Feeds upstream SSE text through a family's mapper in pieces of `size` bytes; answers the OpenAI chunks and whether [DONE] came. */
export async function mapInPieces(mapper: EventMapper, sse: string, size: number) {
  const bytes = new TextEncoder().encode(sse);
  const upstream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.slice(i, i + size));
      c.close();
    },
  });
  const text = await new Response(mapEventStream(upstream, mapper)).text();
  const datas = text
    .split("\n\n")
    .filter(Boolean)
    .map((e) => e.replace(/^data: /, ""));
  const done = datas.at(-1) === "[DONE]";
  return { chunks: datas.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d)), done };
}

/** The tool calls a stream of OpenAI chunks adds up to, the way the openai SDK accumulates them. */
export function accumulatedToolCalls(chunks: any[]) {
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  for (const chunk of chunks)
    for (const d of chunk.choices?.[0]?.delta?.tool_calls ?? []) {
      calls[d.index] ??= { arguments: "" };
      if (d.id) calls[d.index]!.id = d.id;
      if (d.function?.name) calls[d.index]!.name = d.function.name;
      calls[d.index]!.arguments += d.function?.arguments ?? "";
    }
  return calls;
}

export const sse = (events: object[], named = false) =>
  events.map((e: any) => `${named ? `event: ${e.type}\n` : ""}data: ${JSON.stringify(e)}\n\n`).join("");
