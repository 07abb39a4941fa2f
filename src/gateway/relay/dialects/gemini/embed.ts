import { invalidRequest } from "../../../../shared/relay-error";
import type { GeminiContent } from "./request";

export interface GeminiEmbedRequest {
  model?: string;
  content?: GeminiContent;
  taskType?: string;
  title?: string;
  outputDimensionality?: number;
}

export interface PivotEmbeddingRequest {
  model: string;
  input: string | string[];
  encoding_format: "float";
  dimensions?: number;
}

export interface PivotEmbeddingReply {
  data?: { embedding?: number[] | string; index?: number }[];
}

/** `:embedContent` as an OpenAI /v1/embeddings request for `model` (from the path). */
export function embedToOpenAI(body: GeminiEmbedRequest, model: string): PivotEmbeddingRequest {
  return { model, input: embeddedText(body, "content"), encoding_format: "float", ...dimensionsOf([body]) };
}

/** `:batchEmbedContents` as one OpenAI /v1/embeddings request with an input per request. */
export function batchEmbedToOpenAI(body: { requests?: GeminiEmbedRequest[] }, model: string): PivotEmbeddingRequest {
  const requests = body?.requests;
  if (!Array.isArray(requests) || !requests.length) throw invalidRequest("requests must be a non-empty array");
  for (const [at, request] of requests.entries()) {
    const named = request.model?.replace(/^models\//, "");
    if (named && named !== model) throw invalidRequest(`requests[${at}].model must be models/${model}, as in the path`);
  }
  const input = requests.map((request, at) => embeddedText(request, `requests[${at}].content`));
  return { model, input, encoding_format: "float", ...dimensionsOf(requests) };
}

/** The OpenAI reply's first vector as the embedContent reply. */
export function embedReplyOf(reply: PivotEmbeddingReply) {
  return { embedding: { values: vectorsOf(reply)[0] ?? [] } };
}

export function batchEmbedReplyOf(reply: PivotEmbeddingReply) {
  return { embeddings: vectorsOf(reply).map((values) => ({ values })) };
}

function vectorsOf(reply: PivotEmbeddingReply): number[][] {
  return [...(reply.data ?? [])]
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    .map((item) => (Array.isArray(item.embedding) ? item.embedding : []));
}

function embeddedText(request: GeminiEmbedRequest, where: string): string {
  const parts = request?.content?.parts;
  if (!Array.isArray(parts) || !parts.length) throw invalidRequest(`${where}.parts must be a non-empty array`);
  if (parts.some((part) => typeof part.text !== "string"))
    throw invalidRequest(`${where}: only text parts can be embedded`);
  return parts.map((part) => part.text).join("\n");
}

function dimensionsOf(requests: GeminiEmbedRequest[]): { dimensions?: number } {
  const sizes = new Set(requests.map((request) => request.outputDimensionality));
  if (sizes.size > 1) throw invalidRequest("outputDimensionality must be the same for every request of a batch");
  const size = [...sizes][0];
  return size ? { dimensions: size } : {};
}
