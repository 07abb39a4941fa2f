import { ServiceError } from "../../service/errors";

/** Reads a request body up to `limit` bytes; a larger one is refused with 413 before it is all read. */
export function readBodyLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limit) return Promise.reject(new ServiceError("request body is too large", 413));
  // A declared length bounds what the server reads, so the body can be read whole (no stream is made for it).
  if (Number.isFinite(declared)) return request.text();
  if (!request.body) return Promise.resolve("");
  return readChunksLimited(request.body, limit);
}

async function readChunksLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) throw new ServiceError("request body is too large", 413);
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** A JSON object body; malformed JSON or a non-object is a clear 400. An empty body is an empty object. */
export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const text = await readBodyLimited(request, limit);
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ServiceError("request body is not valid JSON", 400);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ServiceError("request body must be a JSON object", 400);
  }
  return value as Record<string, unknown>;
}
