import { invalidRequest } from "../../../../shared/relay-error";
import { tokenCount } from "../openai-shape";

function documentsOf(documents: unknown): string[] {
  if (!Array.isArray(documents) || documents.length === 0) throw invalidRequest("documents must be a non-empty array");
  return documents.map((d: any) => {
    if (typeof d === "string") return d;
    if (typeof d?.text === "string") return d.text;
    throw invalidRequest("documents[] must be strings or {text} objects");
  });
}

/** The /v2/rerank body for the relay's rerank request (query, documents, top_n). */
export function cohereRerankBody(body: Record<string, any>, model: string): Record<string, unknown> {
  if (typeof body.query !== "string" || !body.query) throw invalidRequest("query must be a non-empty string");
  // Cohere v2 answers indexes only; the documents would have to be echoed from the request.
  if (body.return_documents === true)
    throw invalidRequest("return_documents is not supported on Cohere channels", "unsupported_parameter");
  return {
    model,
    query: body.query,
    documents: documentsOf(body.documents),
    ...(tokenCount(body.top_n) && { top_n: tokenCount(body.top_n) }),
  };
}

/**
 * A /v2/rerank reply in the relay's rerank shape. Cohere bills reranking in search units, not tokens: usage is
 * reported only when the reply counts input tokens, otherwise the relay counts the query and documents.
 */
export function mapRerank(reply: any, model: string) {
  const tokens = reply?.meta?.billed_units?.input_tokens ?? reply?.meta?.tokens?.input_tokens;
  return {
    id: reply?.id,
    model,
    results: (Array.isArray(reply?.results) ? reply.results : []).map((r: any) => ({
      index: r?.index,
      relevance_score: r?.relevance_score,
    })),
    ...(tokens !== undefined && { usage: { total_tokens: tokenCount(tokens) } }),
  };
}
