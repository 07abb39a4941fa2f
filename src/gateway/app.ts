import { Elysia } from "elysia";
import { knownSetUp, watchSetup } from "../service/accounts/setup";
import type { ServiceContext } from "../service/context";
import { ServiceError } from "../service/errors";
import { localized, localizeReply } from "./http/localize";
import { VERSION } from "../shared/version";
import { apiRoutes } from "./api";
import { consoleAssets } from "./console-assets";
import { relayCors, RELAY_PATH } from "./http/cors";
import { failure, json } from "./http/envelope";
import { notFoundReply } from "./http/not-found";
import { operatorRoutes } from "./http/operator-routes";
import { securityHeaders } from "./http/security-headers";
import { isTooDeep, TOO_DEEP_MESSAGE } from "./http/too-deep";
import { relayRoutes, relayServeRoutes } from "./relay";
import { SERVED_TYPES } from "./relay/providers/registry";
import { serveChannelTypes } from "../service/channels/served-types";

const OPEN_BEFORE_SETUP = new Set(["/api/status", "/api/setup"]);
export const NOT_INITIALIZED = "the system is not initialized yet, please create the root account at /setup first";
export const INTERNAL_ERROR = "internal server error, contact the administrator";

function pathOf(request: Request): string {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return url.slice(start, end === -1 ? undefined : end);
}

/** Builds the HTTP application: the management API, the relay and the embedded console. */
export function createApp(ctx: ServiceContext) {
  watchSetup(ctx);
  serveChannelTypes(SERVED_TYPES);
  const cors = relayCors(ctx.config.relayCorsOrigins);
  // Bun's development mode (Elysia's default unless NODE_ENV=production at run time) would answer an
  // uncaught error with a page showing its stack.
  return new Elysia({
    serve: { development: false, maxRequestBodySize: ctx.config.maxBodyBytes, routes: relayServeRoutes(ctx) },
  })
    .headers({
      "x-tollgate-version": VERSION,
      "cache-control": "no-store",
      ...securityHeaders(ctx.config.frameAncestors),
    })
    .onRequest(({ request, set }) => {
      const path = pathOf(request);
      if (RELAY_PATH.test(path)) {
        if (request.method === "OPTIONS") return cors.preflight(request);
        Object.assign(set.headers, cors.replyHeaders(request));
      }
      if (knownSetUp(ctx)) return;
      if (!path.startsWith("/api/") || OPEN_BEFORE_SETUP.has(path.replace(/\/$/, ""))) return;
      return json(503, failure(localized(request, NOT_INITIALIZED)));
    })
    .onError(({ error, code, request }) => {
      const refusal = (status: number, message: string) => json(status, failure(localized(request, message)));
      if (error instanceof ServiceError) return refusal(error.status, error.message);
      const path = pathOf(request);
      if (code === "NOT_FOUND") return notFoundReply(request.method, path);
      if (code === "PARSE") return refusal(400, "request body could not be parsed");
      if (code === "VALIDATION") return refusal(400, "invalid request");
      if (isTooDeep(error)) return refusal(400, TOO_DEEP_MESSAGE);
      console.error(`[error] ${request.method} ${path}:`, error instanceof Error ? error.message : error);
      return refusal(500, INTERNAL_ERROR);
    })
    .onAfterHandle(({ request, response }) => {
      if (pathOf(request).startsWith("/api/")) return localizeReply(request, response) as typeof response;
    })
    .use(operatorRoutes(ctx))
    .use(apiRoutes(ctx))
    .use(relayRoutes(ctx))
    .use(consoleAssets(ctx.config.frameAncestors));
}

export type App = ReturnType<typeof createApp>;
