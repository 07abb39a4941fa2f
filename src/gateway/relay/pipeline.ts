import { InsufficientQuotaError, type Reservation } from "../../service/billing/book";
import { countParts, countPartsInSlices, countTextTokens, partsLength, type PromptParts } from "../../service/billing/estimate";
import { priceOf, UnpricedModelError, type Price } from "../../service/billing/pricing";
import { quotaFor, reservationFor, type Usage } from "../../service/billing/quota";
import { setChannelStatus } from "../../service/channels/status";
import type { ServiceContext } from "../../service/context";
import { upstreamGate } from "../../service/egress/site-gate";
import { checkModelAllowed, type RelayCaller } from "../../service/relay/caller";
import { consumeLog, errorLog, type CallRecord } from "../../service/relay/consume-log";
import {
  completionBudget,
  estimatePromptTokens,
  generatedText,
  promptFitsIn,
  promptParts,
  reportedUsage,
  type Endpoint,
} from "../../service/relay/endpoints";
import { invalidRequest, RelayError } from "../../service/relay/errors";
import { mapModel } from "../../service/relay/model-mapping";
import { disableReason, shouldRetry, type AttemptFailure } from "../../service/relay/retry-policy";
import { routeGroups } from "../../service/relay/route-groups";
import type { RouteChannel } from "../../service/relay/routing-table";
import { recordConsumption } from "../../service/stats/record";
import { ChannelStatus, channelTypeName } from "../../shared/channel-types";
import { attemptUpstream, type AttemptResult } from "./attempt";
import { bytesReader, type UpstreamReply } from "../upstream/reply";
import type { RelayRequest } from "./parse";
import { providerFor } from "./providers/registry";
import type { Provider, UpstreamCall } from "./providers/types";
import { relayStream, type StreamOutcome } from "./stream";
import { wholeStreamIn } from "./whole-stream";

const DRAIN_MS = 60_000;
const utf8 = new TextDecoder();
/** A stream reply's headers (a literal per reply: spreading a shared object cost more than building it). */
const sseHeaders = (requestId: string) => ({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
  "x-tollgate-request-id": requestId,
});

interface CallState {
  ctx: ServiceContext;
  caller: RelayCaller;
  endpoint: Endpoint;
  req: RelayRequest;
  requestId: string;
  ip: string;
  startedAt: number;
  /** Counted on first need: a small prompt is reserved at the PreConsumedQuota floor without counting. */
  promptEstimate: () => number;
  channelsTried: number[];
}

function reserveFailure(error: InsufficientQuotaError): RelayError {
  const code = error.who === "user" ? "insufficient_user_quota" : "pre_consume_token_quota_failed";
  return new RelayError(403, `${error.who === "user" ? "user" : "API key"} quota is not enough for this request`, code, "insufficient_quota");
}

/** Which group and channel the next attempt uses: pinned, or the first route group with an untried channel. */
function pickChannel(s: CallState, groups: string[], excluded: Set<number>): { channel: RouteChannel; group: string } | undefined {
  const routes = s.ctx.relay.routes;
  if (s.caller.pinnedChannelId !== undefined) {
    if (excluded.size > 0) return undefined;
    const channel = routes.channel(s.caller.pinnedChannelId);
    if (!channel) throw new RelayError(403, `channel ${s.caller.pinnedChannelId} does not exist or is disabled`, "channel_disabled", "permission_error");
    return { channel, group: s.caller.group };
  }
  for (const group of groups) {
    const channel = routes.pick(group, s.req.model, excluded);
    if (channel) return { channel, group };
  }
  return undefined;
}

function upstreamCall(s: CallState, upstreamModel: string, provider: Provider): UpstreamCall {
  // A family that translates builds its own body from the parsed request: the OpenAI body is not made.
  if (provider.mapResponse) {
    return { path: s.req.path, model: upstreamModel, body: s.req.raw, contentType: "application/json", stream: s.req.stream, json: s.req.json };
  }
  const { body, contentType, stream } = s.req.upstream(upstreamModel);
  return { path: s.req.path, model: upstreamModel, body, contentType, stream };
}

/**
 * The next channel to try whose family serves this endpoint, with its provider. Channels of families that do
 * not are passed over (nothing is sent, they are not at fault); the refusal of the last one is kept for the
 * case where no channel serves the endpoint.
 */
function pickServing(s: CallState, groups: string[], excluded: Set<number>) {
  let unserved: (AttemptResult & { ok: false }) | undefined;
  for (;;) {
    const picked = pickChannel(s, groups, excluded);
    if (!picked) return { unserved };
    const provider = providerFor(picked.channel.row.type);
    if (!provider.endpoints || provider.endpoints.has(s.endpoint.kind)) return { ...picked, provider, unserved };
    unserved = unservedEndpoint(s, picked.channel);
    excluded.add(picked.channel.row.id);
  }
}

/** The refusal for an endpoint the channel's family does not serve; nothing is sent upstream. */
function unservedEndpoint(s: CallState, channel: RouteChannel): AttemptResult & { ok: false } {
  const family = channelTypeName(channel.row.type);
  return {
    ok: false,
    failure: { status: 400, message: `${s.req.path} is not supported by ${family} channels (channel type ${channel.row.type})` },
    upstreamCode: "unsupported_endpoint",
    upstreamType: "invalid_request_error",
  };
}

async function noteFailure(s: CallState, channel: RouteChannel, failure: AttemptFailure): Promise<void> {
  if (!channel.row.auto_ban || !s.ctx.options.bool("AutomaticDisableChannelEnabled")) return;
  const reason = disableReason(s.ctx, failure);
  if (reason) await setChannelStatus(s.ctx, channel.row.id, ChannelStatus.AutoDisabled, reason).catch(() => {});
}

/**
 * An upstream's 401 or 403 is about the channel's own key or account: relayed as such a status (or with the
 * upstream's code, e.g. invalid_api_key), a client would read it as its gateway key failing.
 */
function upstreamRefusedCredentials(status: number, message: string): RelayError {
  return new RelayError(502, `the upstream refused this channel's credentials (HTTP ${status}): ${message}`, "upstream_auth_error", "upstream_error");
}

function finalFailure(last: (AttemptResult & { ok: false }) | undefined, s: CallState, group: string): RelayError {
  if (!last) {
    return new RelayError(503, `no available channel for model ${s.req.model} in group ${group}`, "model_not_found", "tollgate_error", 5);
  }
  const { status, message, retryAfter } = last.failure;
  if (status === 401 || status === 403) return upstreamRefusedCredentials(status, message);
  const httpStatus = status === 0 ? (message.includes("in time") ? 504 : 502) : status;
  return new RelayError(
    httpStatus,
    message,
    last.upstreamCode ?? (status === 0 ? "upstream_unreachable" : "bad_response_status_code"),
    last.upstreamType ?? "upstream_error",
    httpStatus === 429 ? (retryAfter ?? 1) : retryAfter,
  );
}

function priceFor(s: Omit<CallState, "promptEstimate" | "channelsTried">, group: string): Price {
  try {
    return priceOf(s.ctx, s.req.model, group, s.caller.user.group);
  } catch (error) {
    if (error instanceof UnpricedModelError) throw invalidRequest(error.message, "model_price_error");
    throw error;
  }
}

/** Holds the call's worst honest cost: the prompt (at least PreConsumedQuota) plus its completion budget. */
function reserve(s: CallState, price: Price, perCallUnits: number, promptTokens: number): Reservation | Promise<Reservation> {
  const { ctx, caller, req } = s;
  const floor = ctx.options.num("PreConsumedQuota");
  const estimate = { promptTokens, maxCompletionTokens: completionBudget(s.endpoint.kind, req.json ?? {}) };
  const amount = reservationFor(price, estimate, floor, ctx.options.num("QuotaPerUnit")) * perCallUnits;
  const token = caller.token ? { id: caller.token.id, unlimited: caller.token.unlimited_quota === 1 } : null;
  try {
    return ctx.relay.book.reserveAtOnce(caller.user.id, token, amount) ?? ctx.relay.book.reserve(caller.user.id, token, amount).catch(refusedReservation);
  } catch (error) {
    return refusedReservation(error);
  }
}

/** Prompt text up to this many characters is counted on the call's own turn (a few milliseconds at most). */
const COUNT_AT_ONCE_CHARS = 16 * 1024;

/**
 * Reserves the call's cost. A small prompt is held at the PreConsumedQuota floor without counting, a mid-sized
 * one counted at once; a long one is first held at the floor (a caller who cannot pay even that is refused
 * before any tokenizer runs), then counted in slices that let other requests in, then held at its count.
 */
function reserveCall(s: CallState, price: Price, perCallUnits: number, setCount: (tokens: number) => void): Reservation | Promise<Reservation> {
  const floor = s.ctx.options.num("PreConsumedQuota");
  if (promptFitsIn(s.req.raw, floor)) return reserve(s, price, perCallUnits, floor);
  const parts = promptParts(s.endpoint.kind, s.req.json ?? {});
  if (partsLength(parts) > COUNT_AT_ONCE_CHARS) return reserveLongPrompt(s, price, perCallUnits, parts, setCount);
  const counted = countParts(s.req.model, parts);
  setCount(counted);
  return reserve(s, price, perCallUnits, counted);
}

async function reserveLongPrompt(s: CallState, price: Price, perCallUnits: number, parts: PromptParts, setCount: (tokens: number) => void) {
  const minimum = await reserve(s, price, perCallUnits, s.ctx.options.num("PreConsumedQuota"));
  let counted: number;
  try {
    counted = await countPartsInSlices(s.req.model, parts);
  } finally {
    s.ctx.relay.book.release(minimum);
  }
  setCount(counted);
  return reserve(s, price, perCallUnits, counted);
}

function refusedReservation(error: unknown): never {
  throw error instanceof InsufficientQuotaError ? reserveFailure(error) : error;
}

/** Tries channels until one answers 2xx: a failed channel is excluded for the rest of the call. */
async function tryChannels(s: CallState, groups: string[], billing: Omit<Success, "channel" | "group" | "upstreamModel" | "provider">): Promise<Response> {
  const { ctx, caller, req } = s;
  const excluded = new Set<number>();
  const retries = caller.pinnedChannelId === undefined ? ctx.options.num("RetryTimes") : 0;
  let last: (AttemptResult & { ok: false }) | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    const next = pickServing(s, groups, excluded);
    last = next.unserved ?? last;
    if (!("channel" in next)) break;
    const { channel, group, provider } = next;
    s.channelsTried.push(channel.row.id);
    const upstreamModel = mapModel(channel.modelMapping, req.model);
    const call = upstreamCall(s, upstreamModel, provider);
    const result = await attemptUpstream(channel, call, ctx.config.relayTimeoutMs, upstreamGate(ctx.options), provider);
    if (result.ok) {
      const price = group === groups[0] ? billing.price : priceFor(s, group);
      return deliver(s, result.response, { price, perCallUnits: billing.perCallUnits, reservation: billing.reservation, channel, group, upstreamModel, provider });
    }
    last = result;
    await noteFailure(s, channel, result.failure);
    excluded.add(channel.row.id);
    if (!shouldRetry(ctx, result.failure)) break;
  }
  const failure = finalFailure(last, s, caller.group);
  if (ctx.options.bool("ErrorLogEnabled")) {
    const { status, code, message } = failure;
    ctx.relay.book.record(errorLog({ ...s, model: req.model, group: caller.group, path: req.path, status, code, message }));
  }
  throw failure;
}

/**
 * One relayed call: price (fail closed), reserve, then try channels — highest tier first, a failed channel
 * excluded for the rest of the call, up to RetryTimes more — and bill the exact cost from the upstream's
 * usage. The reservation is always released or settled, whatever happens (a stream settles when it ends).
 */
export async function runRelay(call: Omit<CallState, "promptEstimate" | "channelsTried">): Promise<Response> {
  const { ctx, caller, req } = call;
  checkModelAllowed(caller.token, req.model);
  const routes = ctx.relay.routes;
  const pinned = caller.pinnedChannelId !== undefined;
  const groups = pinned ? [caller.group] : routeGroups(ctx, caller.user, caller.group).filter((g) => routes.hasRoute(g, req.model));
  let counted: number | undefined;
  const promptEstimate = () => (counted ??= estimatePromptTokens(call.endpoint.kind, req.model, req.json ?? {}));
  const setCount = (tokens: number) => (counted = tokens);
  const { endpoint, requestId, ip, startedAt } = call;
  const s: CallState = { ctx, caller, endpoint, req, requestId, ip, startedAt, promptEstimate, channelsTried: [] };
  if (groups.length === 0) throw finalFailure(undefined, s, caller.group);
  const price = priceFor(call, groups[0]!);
  const perCallUnits = price.kind === "per-call" ? Math.max(1, Number(req.json?.n) || 1) : 1;
  const held = reserveCall(s, price, perCallUnits, setCount);
  const reservation = held instanceof Promise ? await held : held;
  let delivered = false;
  try {
    const response = await tryChannels(s, groups, { price, perCallUnits, reservation });
    delivered = true;
    return response;
  } finally {
    if (!delivered) ctx.relay.book.release(reservation);
  }
}

interface Success {
  channel: RouteChannel;
  provider: Provider;
  group: string;
  upstreamModel: string;
  price: Price;
  perCallUnits: number;
  reservation: Reservation;
}

function settle(s: CallState, ok: Success, usage: Usage, estimated: boolean, extra: { firstResponseMs: number; streamEnd?: string }) {
  const { ctx } = s;
  const quota = quotaFor(ok.price, usage, ctx.options.num("QuotaPerUnit")) * ok.perCallUnits;
  const record: CallRecord = {
    caller: s.caller,
    model: s.req.model,
    upstreamModel: ok.upstreamModel,
    group: ok.group,
    price: ok.price,
    usage,
    estimated,
    quota,
    channelId: ok.channel.row.id,
    channelsTried: s.channelsTried,
    stream: s.req.stream,
    startedAt: s.startedAt,
    firstResponseMs: extra.firstResponseMs,
    requestId: s.requestId,
    ip: s.ip,
    streamEnd: extra.streamEnd,
  };
  const log = ctx.options.bool("LogConsumeEnabled") ? consumeLog(record) : null;
  ctx.relay.book.settle(ok.reservation, { channelId: ok.channel.row.id, quota, log });
  recordConsumption(ctx, { userId: s.caller.user.id, username: s.caller.user.username, model: s.req.model, quota, tokens: usage.promptTokens + usage.completionTokens });
}

function countedUsage(s: CallState, text: string): Usage {
  return { promptTokens: s.promptEstimate(), completionTokens: countTextTokens(s.req.model, text), cachedTokens: 0 };
}

/** A translating family's JSON reply, in OpenAI's shape, billed from the usage it reported. */
async function deliverTranslated(s: CallState, response: UpstreamReply, ok: Success, map: NonNullable<Provider["mapResponse"]>): Promise<Response> {
  let reply: Record<string, unknown>;
  try {
    reply = map(JSON.parse(await response.text()), ok.upstreamModel);
  } catch {
    throw new RelayError(502, "the upstream's reply could not be read", "bad_response_body", "upstream_error");
  }
  const usage = reportedUsage(s.endpoint.kind, reply);
  const text = usage ? "" : generatedText(s.endpoint.kind, reply);
  settle(s, ok, usage ?? countedUsage(s, text), !usage, { firstResponseMs: Date.now() - s.startedAt });
  return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json", "x-tollgate-request-id": s.requestId } });
}

/** Hands the upstream's answer to the client and bills it (after the stream ends, for streams). */
async function deliver(s: CallState, response: UpstreamReply, ok: Success): Promise<Response> {
  const contentType = response.header("content-type") ?? "";
  const { mapStream, mapResponse } = ok.provider;
  if (s.req.stream && contentType.includes("text/event-stream")) {
    const arrived = mapStream ? undefined : response.arrived();
    const whole = wholeStreamIn(arrived, s.endpoint.kind, s.req.clientWantsUsage);
    if (whole) {
      settle(s, ok, whole.usage, false, { firstResponseMs: Date.now() - s.startedAt, streamEnd: "done" });
      return new Response(whole.body, { status: 200, headers: sseHeaders(s.requestId) });
    }
    const body = await relayStream({
      kind: s.endpoint.kind,
      upstream: arrived ? bytesReader(arrived) : mapStream ? mapStream(response.stream(), ok.upstreamModel).getReader() : response.reader(),
      clientWantsUsage: s.req.clientWantsUsage,
      startedAt: s.startedAt,
      idleTimeoutMs: s.ctx.config.streamingTimeoutMs,
      drainMs: DRAIN_MS,
      pingSeconds: s.ctx.config.streamPingSeconds,
      synthesizeUsage: (outcome: StreamOutcome) => countedUsage(s, outcome.text),
      onEnd: (outcome) => {
        const usage = outcome.usage ?? countedUsage(s, outcome.text);
        settle(s, ok, usage, !outcome.usage, { firstResponseMs: outcome.firstResponseMs, streamEnd: outcome.end });
      },
    });
    return new Response(body, { status: 200, headers: sseHeaders(s.requestId) });
  }
  if (mapResponse) return deliverTranslated(s, response, ok, mapResponse);
  const bytes = await response.bytes();
  let usage: Usage | undefined;
  let text = "";
  if (contentType.includes("json")) {
    try {
      const parsed = JSON.parse(utf8.decode(bytes));
      usage = reportedUsage(s.endpoint.kind, parsed);
      if (!usage) text = generatedText(s.endpoint.kind, parsed);
    } catch {}
  } else if (s.endpoint.kind === "transcriptions") {
    text = utf8.decode(bytes);
  }
  const firstResponseMs = Date.now() - s.startedAt;
  settle(s, ok, usage ?? countedUsage(s, text), !usage, { firstResponseMs });
  const headers: Record<string, string> = { "x-tollgate-request-id": s.requestId };
  if (contentType) headers["content-type"] = contentType;
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status: response.status, headers });
}
