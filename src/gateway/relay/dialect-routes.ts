import type { ServiceContext } from "../../service/context";
import { authenticateRelayKey, checkModelAllowed } from "../../service/relay/caller";
import { ENDPOINTS, promptTokensOffThread } from "../../service/relay/endpoints";
import { clientIp } from "../http/client-ip";
import { anthropicDialect } from "./dialects/anthropic";
import { geminiDialect } from "./dialects/gemini";
import { geminiRouteFacts } from "./dialects/gemini/route";
import { responsesDialect } from "./dialects/responses";
import type { InboundDialect, RouteFacts } from "./dialects/types";
import { parseInboundEmbedding } from "./inbound-embedding";
import { parseInboundRequest } from "./inbound-request";
import { runRelay } from "./pipeline";
import { newRequestId } from "./request-id";
import { relayErrorResponse } from "./respond";
import { relayErrorLanguage, streamWording } from "../../service/relay/error-language";

type Server = Parameters<typeof clientIp>[1];

/**
 * What a dialect's route does: relay the call, count its prompt's tokens (no upstream call, no charge), or embed
 * (through the relay's embeddings path).
 */
type Action = "relay" | "count_tokens" | "embed";

/** A dialect's POST route: what it does, and what its URL says about the call (model, streaming) if anything. */
export interface DialectRoute {
  dialect: InboundDialect;
  action: Action;
  /** Reads the URL (e.g. Gemini's /v1beta/models/{model}:streamGenerateContent?alt=sse); absent: the body says all. */
  facts?(url: URL): Omit<RouteFacts, "url" | "countOnly">;
  /** For a route whose URL names the action (Gemini's :countTokens, :embedContent, …): `action` for what it names. */
  actionOf?(named: string | undefined): Action;
}

const GEMINI_ACTIONS: Record<string, Action> = {
  countTokens: "count_tokens",
  embedContent: "embed",
  batchEmbedContents: "embed",
};

/** Gemini's `models/{model}:{action}`: @google/genai 3.x calls it under /v1, other clients under /v1beta. */
const geminiRoute: DialectRoute = {
  dialect: geminiDialect,
  action: "relay",
  facts: geminiRouteFacts,
  actionOf: (named) => GEMINI_ACTIONS[named ?? ""] ?? "relay",
};

/**
 * The POST routes of the inbound dialects other than OpenAI's, in Bun's route syntax (`:param`, `*`); query
 * parameters such as ?beta=true are not part of the match.
 */
export const DIALECT_ROUTES: Record<string, DialectRoute> = {
  "/v1/messages": { dialect: anthropicDialect, action: "relay" },
  "/v1/messages/count_tokens": { dialect: anthropicDialect, action: "count_tokens" },
  "/v1beta/models/*": geminiRoute,
  "/v1/models/*": geminiRoute,
  "/v1/responses": { dialect: responsesDialect, action: "relay" },
};

const json = (body: unknown, requestId: string) =>
  new Response(JSON.stringify(body), {
    headers: { "content-type": "application/json", "x-tollgate-request-id": requestId },
  });

/** One call in a dialect: its key, its body as the pivot, then the relay; every failure in the dialect's error shape. */
export function dialectCall(ctx: ServiceContext) {
  const limit = ctx.config.maxBodyBytes;
  return async (request: Request, server: Server, how: DialectRoute): Promise<Response> => {
    const { dialect, facts } = how;
    const requestId = newRequestId();
    const startedAt = Date.now();
    try {
      const url = new URL(request.url);
      const named = facts?.(url);
      const action = how.actionOf ? how.actionOf(named?.action) : how.action;
      const route: RouteFacts = { ...named, url, countOnly: action === "count_tokens" };
      const ip = clientIp(request, server, ctx.config.trustProxy);
      const caller = await authenticateRelayKey(ctx, dialect.authorization(request, url), ip);
      if (action === "embed" && dialect.embeddings) {
        const req = await parseInboundEmbedding(request, dialect, dialect.embeddings, route, limit);
        const endpoint = ENDPOINTS["/v1/embeddings"]!;
        const clientHeaders = request.headers;
        return await runRelay({ ctx, caller, endpoint, req, requestId, ip, startedAt, clientHeaders });
      }
      const req = await parseInboundRequest(request, dialect, route, limit, streamWording(ctx));
      if (action === "count_tokens") {
        checkModelAllowed(caller.token, req.model);
        const tokens = await promptTokensOffThread("chat", req.model, req.json!);
        return json(dialect.countReply ? dialect.countReply(tokens) : { input_tokens: tokens }, requestId);
      }
      const endpoint = { kind: "chat", streams: true } as const;
      return await runRelay({ ctx, caller, endpoint, req, requestId, ip, startedAt, clientHeaders: request.headers });
    } catch (error) {
      return relayErrorResponse(error, requestId, relayErrorLanguage(ctx), dialect.errorBody);
    }
  };
}
