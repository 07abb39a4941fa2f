import { readBodyLimited } from "../http/body";
import type { DialectEmbeddings, InboundDialect, RouteFacts } from "./dialects/types";
import { parseJsonObject, type RelayRequest } from "./parse";

/**
 * A dialect's embedding call as an OpenAI /v1/embeddings call, which the pipeline routes, charges and logs (and
 * passes through untranslated to a channel of the dialect's family).
 */
export async function parseInboundEmbedding(
  request: Request,
  dialect: InboundDialect,
  embeddings: DialectEmbeddings,
  route: RouteFacts,
  limit: number,
): Promise<RelayRequest> {
  const raw = await readBodyLimited(request, limit);
  const body = parseJsonObject(raw);
  const json = embeddings.toOpenAI(body, route);
  const pivot = JSON.stringify(json);
  return {
    path: "/v1/embeddings",
    model: String(json.model),
    stream: false,
    clientWantsUsage: false,
    json,
    raw: pivot,
    inbound: { dialect, route, body, raw, headers: {}, embedding: true },
    upstream: (model) => ({
      body: model === json.model ? pivot : JSON.stringify({ ...json, model }),
      contentType: "application/json",
      stream: false,
    }),
  };
}
