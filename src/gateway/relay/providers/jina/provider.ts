import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import { bearerHeaders } from "../openai-compatible/bearer";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";

const PATHS: Record<string, string> = { "/v1/embeddings": "/v1/embeddings", "/v1/rerank": "/v1/rerank" };

/** Jina names OpenAI's encoding_format embedding_type; the rest of both bodies is OpenAI's (and the relay's rerank). */
function jinaBody(call: UpstreamCall): string | FormData {
  if (call.path !== "/v1/embeddings" || typeof call.body !== "string") return call.body;
  const { encoding_format, ...rest } = JSON.parse(call.body);
  return JSON.stringify(encoding_format && !rest.embedding_type ? { ...rest, embedding_type: encoding_format } : rest);
}

/** Jina AI: embeddings and rerank in OpenAI's shape at `<base>/v1/...`, bearer key; no chat. */
export const jinaProvider: Provider = {
  types: [38],
  endpoints: new Set(["embeddings", "rerank"]),
  request(channel: ProviderChannel, call: UpstreamCall) {
    const body = jinaBody(call);
    return {
      url: `${channelBaseUrl(channel)}${PATHS[call.path] ?? call.path}`,
      headers: { ...bearerHeaders(channel), "content-type": "application/json" },
      ...(typeof body === "string" && { body }),
    };
  },
  errorOf: openaiErrorOf,
};
