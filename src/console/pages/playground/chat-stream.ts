/** A chunk of an OpenAI chat stream, as far as the playground reads it. */
interface StreamChunk {
  choices?: { delta?: { content?: string | null; reasoning_content?: string | null } }[];
  error?: { message?: string };
}

export class StreamError extends Error {}

/** The text a `data:` payload adds to the reply; an error chunk throws its message. */
function pieceOf(payload: string, unreadable: string): string {
  let chunk: StreamChunk;
  try {
    chunk = JSON.parse(payload) as StreamChunk;
  } catch {
    throw new StreamError(unreadable);
  }
  if (chunk.error) throw new StreamError(chunk.error.message ?? unreadable);
  return (chunk.choices ?? []).map((choice) => choice.delta?.content ?? "").join("");
}

/**
 * Reads an event stream of chat chunks, calling `onPiece` with each piece of content. Answers true at the
 * end-of-stream marker (data: [DONE]), false when the stream ended without it. `unreadable` is the
 * message of a chunk that is not JSON.
 */
export async function readChatStream(
  body: ReadableStream<Uint8Array>,
  onPiece: (text: string) => void,
  unreadable: string,
): Promise<boolean> {
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += decoder.decode(read.value, { stream: true });
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data:")) continue;
      const payload = line.slice(5).trim();
      if (payload === "[DONE]") return true;
      const piece = pieceOf(payload, unreadable);
      if (piece) onPiece(piece);
    }
  }
  return false;
}
