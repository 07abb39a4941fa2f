import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { authenticateRelayKey, type RelayCaller } from "../../service/relay/caller";
import { RelayError } from "../../service/relay/errors";
import { callerModels } from "../../service/relay/model-list";
import { clientIp } from "../http/client-ip";
import { geminiDialect } from "./dialects/gemini";
import { geminiModel, geminiModelList } from "./dialects/gemini/models";
import { newRequestId } from "./request-id";
import { relayErrorResponse } from "./respond";
import { relayErrorLanguage } from "../../service/relay/error-language";

type Server = Parameters<typeof clientIp>[1];

const positive = (value: string | null) => (value ? Number.parseInt(value, 10) || undefined : undefined);

/**
 * Whether a GET of /v1/models comes from a Gemini client (@google/genai 3.x lists models under /v1): it sends its
 * key as x-goog-api-key or ?key=, never as Authorization.
 */
export const speaksGemini = (request: Request) =>
  !request.headers.has("authorization") &&
  (request.headers.has("x-goog-api-key") || new URL(request.url).searchParams.has("key"));

/** Gemini's model list and model: the caller's models, as /v1/models lists them, in Gemini's shapes. */
export function geminiModelAnswers(ctx: ServiceContext) {
  const withKey = async (request: Request, server: Server, work: (caller: RelayCaller, url: URL) => unknown) => {
    const requestId = newRequestId();
    try {
      const url = new URL(request.url);
      const ip = clientIp(request, server, ctx.config.trustProxy);
      const caller = await authenticateRelayKey(ctx, geminiDialect.authorization(request, url), ip);
      return new Response(JSON.stringify(await work(caller, url)), {
        headers: { "content-type": "application/json", "x-tollgate-request-id": requestId },
      });
    } catch (error) {
      return relayErrorResponse(error, requestId, relayErrorLanguage(ctx), geminiDialect.errorBody);
    }
  };
  return {
    list: (request: Request, server: Server) =>
      withKey(request, server, (caller, url) =>
        geminiModelList(callerModels(ctx, caller), {
          pageSize: positive(url.searchParams.get("pageSize")),
          pageToken: url.searchParams.get("pageToken") ?? undefined,
        }),
      ),
    get: (request: Request, server: Server, name: string) =>
      withKey(request, server, (caller) => {
        const model = decodeURIComponent(name).replace(/^models\//, "");
        if (!callerModels(ctx, caller).includes(model)) {
          throw new RelayError(404, `models/${model} is not found`, "model_not_found", "invalid_request_error");
        }
        return geminiModel(model);
      }),
  };
}

/** GET /v1beta/models and /v1beta/models/{model}. */
export function geminiModelRoutes(models: ReturnType<typeof geminiModelAnswers>) {
  return new Elysia()
    .get("/v1beta/models", ({ request, server }) => models.list(request, server))
    .get("/v1beta/models/:model", ({ request, server, params }) => models.get(request, server, params.model));
}
