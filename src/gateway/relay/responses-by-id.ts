import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { gatedFetch } from "../../service/egress/gated-fetch";
import { upstreamGate } from "../../service/egress/site-gate";
import { authenticateRelayKey, checkModelAllowed, type RelayCaller } from "../../service/relay/caller";
import { promptTokensOffThread } from "../../service/relay/endpoints";
import { invalidRequest, RelayError } from "../../service/relay/errors";
import { maskUpstreamText } from "../../service/relay/mask";
import { mapModel } from "../../service/relay/model-mapping";
import { routeGroups } from "../../service/relay/route-groups";
import type { RouteChannel } from "../../service/relay/routing-table";
import { readBodyLimited } from "../http/body";
import { clientIp } from "../http/client-ip";
import { lacksResponses } from "./dialects/responses/lacks-responses";
import { responsesToChat } from "./dialects/responses/to-chat";
import { familyOf } from "./families";
import { parseJsonObject } from "./parse";
import { providerFor } from "./providers/registry";
import { newRequestId } from "./request-id";
import { relayErrorResponse } from "./respond";
import { forgetReply, storedReply } from "./stored-replies";
import { relayErrorLanguage } from "../../service/relay/error-language";

type Server = Parameters<typeof clientIp>[1];

/** Families whose upstreams store responses and serve them by id. */
const STORING_FAMILIES = new Set(["openai", "azure"]);

const isStoring = (channel: RouteChannel) => STORING_FAMILIES.has(familyOf(providerFor(channel.row.type)));

function notStored(id: string): RelayError {
  return new RelayError(
    404,
    `No response with id '${id}' is stored upstream through this gateway: only responses created on an OpenAI channel are, for the key's user, while the gateway runs; a response translated to chat completions is never stored`,
    "response_not_found",
    "invalid_request_error",
  );
}

/** One call to an OpenAI-family channel's Responses API, its reply relayed (an error's text masked). */
async function forward(
  ctx: ServiceContext,
  channel: RouteChannel,
  call: { method: string; path: string; search: string; model: string; body?: string },
  requestId: string,
): Promise<Response> {
  const { row } = channel;
  const upstream = { path: call.path, model: call.model, body: call.body ?? "", stream: false };
  const { url, headers } = providerFor(row.type).request(row, {
    ...upstream,
    contentType: call.body ? "application/json" : null,
  });
  const full = call.search ? `${url}${url.includes("?") ? "&" : "?"}${call.search.slice(1)}` : url;
  const streams = /(^|[?&])stream=true/.test(call.search);
  const timeout = ctx.config.relayTimeoutMs > 0 && !streams ? AbortSignal.timeout(ctx.config.relayTimeoutMs) : null;
  let response: Response;
  try {
    const init = { method: call.method, headers, body: call.body, redirect: "manual" as const, signal: timeout };
    response = await gatedFetch(full, init, upstreamGate(ctx.options));
  } catch {
    throw new RelayError(502, "could not reach the channel that stored the response", "upstream_unreachable");
  }
  const out = {
    "content-type": response.headers.get("content-type") ?? "application/json",
    "x-tollgate-request-id": requestId,
  };
  if (response.ok) return new Response(response.body, { status: response.status, headers: out });
  const text = maskUpstreamText(await response.text().catch(() => ""), [row.key, row.base_url]);
  return new Response(text, { status: response.status, headers: out });
}

/** The channel that stored response `id` for this caller, or a 404 saying why there is none. */
function storingChannel(ctx: ServiceContext, caller: RelayCaller, id: string) {
  const stored = storedReply(id);
  if (!stored || stored.userId !== caller.user.id) throw notStored(id);
  const channel = ctx.relay.routes.channel(stored.channelId);
  if (!channel) {
    throw new RelayError(
      404,
      `the channel that stored response '${id}' is no longer available`,
      "response_not_found",
      "invalid_request_error",
    );
  }
  return { channel, model: stored.model };
}

/** An OpenAI-family channel serving `model` for the caller, if any (the one pinned by the key, if it is one). */
function openaiChannelFor(ctx: ServiceContext, caller: RelayCaller, model: string): RouteChannel | undefined {
  const routes = ctx.relay.routes;
  if (caller.pinnedChannelId !== undefined) {
    const pinned = routes.channel(caller.pinnedChannelId);
    return pinned && isStoring(pinned) ? pinned : undefined;
  }
  for (const group of routeGroups(ctx, caller.user, caller.group)) {
    const excluded = new Set<number>();
    for (let channel = routes.pick(group, model, excluded); channel; channel = routes.pick(group, model, excluded)) {
      if (isStoring(channel)) return channel;
      excluded.add(channel.row.id);
    }
  }
  return undefined;
}

/** The gateway's own count of a Responses request's prompt, as the pivot it would be translated to. */
async function estimatedInputTokens(model: string, body: Record<string, any>) {
  let chat: Record<string, any> | undefined;
  try {
    chat = responsesToChat({ ...body, stream: false }).chat;
  } catch {}
  const tokens = await (chat
    ? promptTokensOffThread("chat", model, chat)
    : promptTokensOffThread("responses", model, body));
  return Response.json({ object: "response.input_tokens", input_tokens: tokens });
}

/**
 * The Responses API's calls on stored responses (retrieve, delete, cancel, input items) go to the OpenAI-family
 * channel that created the response; input_tokens to an OpenAI-family channel serving the model, else the
 * gateway's estimate. Nothing here is charged.
 */
export function storedResponseRoutes(ctx: ServiceContext) {
  const withCaller = async (
    request: Request,
    server: Server,
    work: (caller: RelayCaller, requestId: string) => Promise<Response>,
  ) => {
    const requestId = newRequestId();
    try {
      const ip = clientIp(request, server, ctx.config.trustProxy);
      return await work(await authenticateRelayKey(ctx, request.headers.get("authorization"), ip), requestId);
    } catch (error) {
      return relayErrorResponse(error, requestId, relayErrorLanguage(ctx));
    }
  };
  const byId =
    (method: string, suffix = "") =>
    ({ request, server, params }: { request: Request; server: Server; params: { id: string } }) =>
      withCaller(request, server, async (caller, requestId) => {
        const { channel, model } = storingChannel(ctx, caller, params.id);
        const path = `/v1/responses/${encodeURIComponent(params.id)}${suffix}`;
        const search = new URL(request.url).search;
        const reply = await forward(ctx, channel, { method, path, search, model }, requestId);
        if (method === "DELETE" && reply.ok) forgetReply(params.id);
        return reply;
      });
  const inputTokens = ({ request, server }: { request: Request; server: Server }) =>
    withCaller(request, server, async (caller, requestId) => {
      const body = parseJsonObject(await readBodyLimited(request, ctx.config.maxBodyBytes));
      if (typeof body.model !== "string" || !body.model.trim()) throw invalidRequest("model is required");
      const model = body.model.trim();
      checkModelAllowed(caller.token, model);
      const previous = typeof body.previous_response_id === "string" ? body.previous_response_id : undefined;
      const stored = previous ? storingChannel(ctx, caller, previous) : undefined;
      const channel = stored?.channel ?? openaiChannelFor(ctx, caller, model);
      if (!channel) return estimatedInputTokens(model, body);
      const upstreamModel = mapModel(channel.modelMapping, model);
      const call = {
        method: "POST",
        path: "/v1/responses/input_tokens",
        search: "",
        model: upstreamModel,
        body: JSON.stringify({ ...body, model: upstreamModel }),
      };
      const reply = await forward(ctx, channel, call, requestId);
      return lacksResponses(reply.status) && !stored ? estimatedInputTokens(model, body) : reply;
    });
  return new Elysia()
    .post("/v1/responses/input_tokens", inputTokens)
    .get("/v1/responses/:id", byId("GET"))
    .delete("/v1/responses/:id", byId("DELETE"))
    .post("/v1/responses/:id/cancel", byId("POST", "/cancel"))
    .get("/v1/responses/:id/input_items", byId("GET", "/input_items"));
}
