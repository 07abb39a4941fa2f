import { ServiceError } from "../../service/errors";
import { contentCodings, decodedBody } from "./content-encoding";

const tooLarge = () => new ServiceError("request body is too large", 413);

/** Whether the body can be read whole: a declared length bounds what is read, and no coding can inflate it. A declared length over `limit` is refused. */
function readableWhole(request: Request, limit: number): boolean {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limit) throw tooLarge();
  return Number.isFinite(declared) && !request.headers.has("content-encoding");
}

/**
 * Reads a request body up to `limit` bytes; a larger one is refused with 413 before it is all read. A
 * compressed body (Content-Encoding) is decoded as it is read, and the limit holds for its decoded size.
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (readableWhole(request, limit)) return request.bytes();
  if (!request.body) return new Uint8Array();
  const codings = contentCodings(request.headers.get("content-encoding"));
  return readChunksLimited(codings.length === 0 ? request.body : decodedBody(request.body, codings), limit);
}

/** The body as text, read as readBodyBytes says (without making a stream when it can be read whole). */
export async function readBodyLimited(request: Request, limit: number): Promise<string> {
  if (readableWhole(request, limit)) return request.text();
  return new TextDecoder().decode(await readBodyBytes(request, limit));
}

async function readChunksLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError("request body could not be decoded with its Content-Encoding", 400);
  }
  return Buffer.concat(chunks);
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

/**
 * The request to read form data from: the request itself, or, when its body is compressed, a copy holding
 * the decoded body (read within `limit`, as readBodyBytes says).
 */
export async function decodedFormRequest(request: Request, limit: number): Promise<Request> {
  if (readableWhole(request, limit) || !request.headers.has("content-encoding")) return request;
  const body = await readBodyBytes(request, limit);
  return new Request(request.url, {
    method: request.method,
    headers: { "content-type": request.headers.get("content-type") ?? "" },
    body,
  });
}
