import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { billingSubscription, billingUsage } from "../../service/relay/billing-view";
import { authenticateRelayKey, playgroundCaller, type RelayCaller } from "../../service/relay/caller";
import { ENDPOINTS, type Endpoint } from "../../service/relay/endpoints";
import { RelayError } from "../../service/relay/errors";
import { callerModels, modelObject } from "../../service/relay/model-list";
import { authenticate } from "../api/auth";
import { clientIp } from "../http/client-ip";
import { relayCors } from "../http/cors";
import { securityHeaders, withHeaderPairs, withHeaders } from "../http/security-headers";
import { DIALECT_ROUTES, dialectCall } from "./dialect-routes";
import { geminiModelAnswers, geminiModelRoutes, speaksGemini } from "./gemini-models";
import { parseRelayRequest } from "./parse";
import { runRelay } from "./pipeline";
import { newRequestId } from "./request-id";
import { relayErrorResponse } from "./respond";
import { storedResponseRoutes } from "./responses-by-id";
import { mjRoutes } from "./tasks/mj-routes";
import { sunoRoutes } from "./tasks/suno-routes";
import { relayErrorLanguage } from "../../service/relay/error-language";

type Server = Parameters<typeof clientIp>[1];

const jsonReply = (body: unknown, requestId: string) =>
  new Response(JSON.stringify(body), {
    headers: { "content-type": "application/json", "x-tollgate-request-id": requestId },
  });

type RelayCall = (
  request: Request,
  server: Server,
  path: string,
  endpoint: Endpoint,
  caller?: RelayCaller,
) => Promise<Response>;

/** One relayed call, from the raw request to the reply; every failure becomes an OpenAI-shaped error reply. */
function relayCall(ctx: ServiceContext): RelayCall {
  const limit = ctx.config.maxBodyBytes;
  return async (request, server, path, endpoint, caller) => {
    const requestId = newRequestId();
    const startedAt = Date.now();
    try {
      const ip = clientIp(request, server, ctx.config.trustProxy);
      const found = caller ?? authenticateRelayKey(ctx, request.headers.get("authorization"), ip);
      const who = found instanceof Promise ? await found : found;
      const req = await parseRelayRequest(request, path, endpoint, limit);
      const clientHeaders = request.headers;
      return await runRelay({ ctx, caller: who, endpoint, req, requestId, ip, startedAt, clientHeaders });
    } catch (error) {
      const reply = relayErrorResponse(error, requestId, relayErrorLanguage(ctx));
      ctx.relay.metrics.failed(endpoint.kind, reply.status);
      return reply;
    }
  };
}

/**
 * The relayed POST endpoints as routes of Bun's own router, handed to Bun.serve beside the application:
 * the hot path skips the framework's per-request work. The same endpoints stay on the application (for
 * requests that reach it another way) and behave the same there.
 */
export function relayServeRoutes(ctx: ServiceContext) {
  const call = relayCall(ctx);
  const cors = relayCors(ctx.config.relayCorsOrigins);
  const headers = { ...securityHeaders(ctx.config.frameAncestors), ...cors.fixedHeaders };
  const fixedPairs = Object.entries(headers);
  const secured = (reply: Response) => withHeaderPairs(reply, fixedPairs);
  /**
   * The reply with the fixed headers, and the CORS headers for the request's origin unless they are fixed too.
   * With fixed ones (any origin allowed, the default) the wait keeps no frame or closure of its own: thousands of
   * streams wait for their upstream's first byte at once.
   */
  const finish = (reply: Promise<Response>, request: Request): Promise<Response> => {
    if (cors.fixedHeaders) return reply.then(secured);
    const corsHeaders = cors.replyHeaders(request);
    return reply.then((answered) => withHeaders(secured(answered), corsHeaders));
  };
  const answer = (request: Request, server: Server, path: string, endpoint: Endpoint) =>
    finish(call(request, server, path, endpoint), request);
  const preflight = (request: Request) => withHeaders(cors.preflight(request), headers);
  const inDialect = dialectCall(ctx);
  return Object.fromEntries([
    ...Object.entries(ENDPOINTS).map(([path, endpoint]) => [
      path,
      {
        POST: (request: Request, server: Server) => answer(request, server, path, endpoint),
        OPTIONS: preflight,
      },
    ]),
    ...Object.entries(DIALECT_ROUTES).map(([path, route]) => [
      path,
      {
        POST: (request: Request, server: Server) => finish(inDialect(request, server, route), request),
        OPTIONS: preflight,
      },
    ]),
  ]);
}

/** The OpenAI-compatible relay: /v1/*, the playground's /pg/chat/completions and /dashboard/billing/*. */
export function relayRoutes(ctx: ServiceContext) {
  const call = relayCall(ctx);
  const withKey = (request: Request, server: Server, work: (caller: RelayCaller, requestId: string) => unknown) => {
    const requestId = newRequestId();
    return Promise.resolve()
      .then(() =>
        authenticateRelayKey(
          ctx,
          request.headers.get("authorization"),
          clientIp(request, server, ctx.config.trustProxy),
        ),
      )
      .then(async (caller) => jsonReply(await work(caller, requestId), requestId))
      .catch((error) => relayErrorResponse(error, requestId, relayErrorLanguage(ctx)));
  };

  let app = new Elysia();
  for (const [path, endpoint] of Object.entries(ENDPOINTS)) {
    app = app.post(path, ({ request, server }) => call(request, server, path, endpoint));
  }
  const inDialect = dialectCall(ctx);
  for (const [path, route] of Object.entries(DIALECT_ROUTES)) {
    app = app.post(path, ({ request, server }) => inDialect(request, server, route));
  }
  const geminiModels = geminiModelAnswers(ctx);
  return app
    .use(geminiModelRoutes(geminiModels))
    .use(storedResponseRoutes(ctx))
    .use(mjRoutes(ctx))
    .use(sunoRoutes(ctx))
    .post("/pg/chat/completions", async ({ request, server }) => {
      const requestId = newRequestId();
      try {
        const { user } = await authenticate(ctx, request);
        const endpoint = ENDPOINTS["/v1/chat/completions"]!;
        const peek = request.clone();
        const group = String(((await peek.json().catch(() => ({}))) as { group?: unknown }).group ?? "");
        const caller = await playgroundCaller(ctx, user.id, group);
        return await call(request, server, "/v1/chat/completions", endpoint, caller);
      } catch (error) {
        return relayErrorResponse(error, requestId, relayErrorLanguage(ctx));
      }
    })
    .get("/v1/models", ({ request, server }) =>
      speaksGemini(request)
        ? geminiModels.list(request, server)
        : withKey(request, server, (caller) => ({ object: "list", data: callerModels(ctx, caller).map(modelObject) })),
    )
    .get("/v1/models/:model", ({ request, server, params }) =>
      speaksGemini(request)
        ? geminiModels.get(request, server, params.model)
        : withKey(request, server, (caller) => {
            if (!callerModels(ctx, caller).includes(params.model)) {
              throw new RelayError(
                404,
                `the model '${params.model}' does not exist`,
                "model_not_found",
                "invalid_request_error",
              );
            }
            return modelObject(params.model);
          }),
    )
    .get("/dashboard/billing/subscription", ({ request, server }) =>
      withKey(request, server, (c) => billingSubscription(ctx, c)),
    )
    .get("/v1/dashboard/billing/subscription", ({ request, server }) =>
      withKey(request, server, (c) => billingSubscription(ctx, c)),
    )
    .get("/dashboard/billing/usage", ({ request, server }) => withKey(request, server, (c) => billingUsage(ctx, c)))
    .get("/v1/dashboard/billing/usage", ({ request, server }) => withKey(request, server, (c) => billingUsage(ctx, c)));
}
