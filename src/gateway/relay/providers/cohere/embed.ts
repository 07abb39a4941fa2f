import { invalidRequest } from "../../../../shared/relay-error";
import { tokenCount } from "../openai-shape";

const INPUT_TYPES = new Set(["search_document", "search_query", "classification", "clustering"]);

/** OpenAI embedding inputs as Cohere's texts: a string or strings (token arrays have no Cohere form). */
function textsOf(input: unknown): string[] {
  if (typeof input === "string") return [input];
  if (Array.isArray(input) && input.length && input.every((i) => typeof i === "string")) return input;
  throw invalidRequest(
    "input must be a string or an array of strings on Cohere channels (token arrays are not supported)",
  );
}

/**
 * The /v2/embed body. Cohere's v3+ models need an input_type: the client may name one (a Cohere extension of
 * the OpenAI request); otherwise the texts are embedded as documents, the common case of building an index.
 */
export function cohereEmbedBody(body: Record<string, any>, model: string): Record<string, unknown> {
  const inputType = body.input_type ?? "search_document";
  if (!INPUT_TYPES.has(inputType))
    throw invalidRequest(`input_type must be one of ${[...INPUT_TYPES].join(", ")} on Cohere channels`);
  if (body.encoding_format !== undefined && body.encoding_format !== "float" && body.encoding_format !== "base64")
    throw invalidRequest('encoding_format must be "float" or "base64"');
  return {
    model,
    texts: textsOf(body.input),
    input_type: inputType,
    // Asking for base64 too marks the reply as wanted in base64 (the reply does not echo the request); the
    // vectors are encoded here from the floats, in OpenAI's little-endian float32 form.
    embedding_types: body.encoding_format === "base64" ? ["float", "base64"] : ["float"],
    ...(tokenCount(body.dimensions) && { output_dimension: tokenCount(body.dimensions) }),
  };
}

/** A vector as OpenAI's base64 encoding: little-endian float32s. */
const base64Of = (vector: number[]) => Buffer.from(new Float32Array(vector).buffer).toString("base64");

/**
 * A /v2/embed reply as OpenAI's embedding list, in the encoding the client asked for (the openai SDK asks for base64
 * by default).
 */
export function mapEmbed(reply: any, model: string) {
  const base64 = reply?.embeddings?.base64 !== undefined;
  const vectors: number[][] = reply?.embeddings?.float ?? [];
  const billed = reply?.meta?.billed_units?.input_tokens ?? reply?.meta?.tokens?.input_tokens;
  const prompt = tokenCount(billed);
  return {
    object: "list",
    data: vectors.map((v, index) => ({ object: "embedding", index, embedding: base64 ? base64Of(v) : v })),
    model,
    ...(billed !== undefined && { usage: { prompt_tokens: prompt, total_tokens: prompt } }),
  };
}
