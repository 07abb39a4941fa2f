import { CallCharge, type ChargedCall } from "../../service/billing/call-charge";
import type { Usage } from "../../service/billing/quota";
import { setChannelStatus } from "../../service/channels/status";
import { autoDisableKey, pickKey } from "../../service/channels/multi-key";
import { upstreamGate } from "../../service/egress/site-gate";
import { checkModelAllowed } from "../../service/relay/caller";
import { errorLog } from "../../service/relay/consume-log";
import { streamWording } from "../../service/relay/error-language";
import { generatedText, reportedUsage } from "../../service/relay/endpoints";
import { RelayError } from "../../service/relay/errors";
import { mapModel } from "../../service/relay/model-mapping";
import { admitModelRequest } from "../../service/relay/model-request-limit";
import { inlineImageUrls } from "../../service/relay/image-download";
import { admitTraffic, trafficLimited } from "../../service/relay/token-rate-limit";
import { disableReason, shouldRetry, type AttemptFailure } from "../../service/relay/retry-policy";
import { routeGroups } from "../../service/relay/route-groups";
import { promptCheckOn } from "../../service/relay/sensitive/prompt-check";
import type { RouteChannel } from "../../service/relay/routing-table";
import { ChannelStatus, channelTypeName } from "../../shared/channel-types";
import { attemptUpstream, type AttemptResult } from "./attempt";
import { inDialect, wholeInDialect } from "./dialect-reply";
import { familyOf } from "./families";
import { deliverNative } from "./native-delivery";
import { passesThrough, translatesAfter } from "./native-choice";
import { nativeCall, nativeProvider } from "./native-request";
import { rememberReply } from "./stored-replies";
import { bytesReader, type UpstreamReply } from "../upstream/reply";
import type { RelayRequest } from "./parse";
import { claimantOf, providerFor } from "./providers/registry";
import { unservedMessage } from "./providers/unserved";
import type { Provider, UpstreamCall } from "./providers/types";
import { screenPrompt } from "./screen-prompt";
import { relayStream } from "./stream";
import { BilledStream, type StreamShape } from "./billed-stream";
import { streamOnlyReply } from "./stream-only-reply";
import { wholeStreamIn, wholeStreamResponse } from "./whole-stream";
import { pivotText, wholePivotUsage } from "./pivot-events";
import { mappedReader } from "./providers/mapped-reader";
import type { WholePivot } from "./dialects/types";

const DRAIN_MS = 60_000;
const utf8 = new TextDecoder();
/** A stream reply's headers (a literal per reply: spreading a shared object cost more than building it). */
const sseHeaders = (requestId: string) => ({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
  "x-tollgate-request-id": requestId,
});

interface CallState extends ChargedCall {
  req: RelayRequest;
  /** The download of the request's image URLs into it, once begun (for a family that takes bytes). */
  imagesInlined?: Promise<boolean>;
  /** The client's request headers (a channel's header_override may copy one). */
  clientHeaders?: Headers;
}

/** Which group and channel the next attempt uses: pinned, or the first route group with an untried channel. */
function pickChannel(
  s: CallState,
  groups: string[],
  excluded: Set<number>,
): { channel: RouteChannel; group: string } | undefined {
  const routes = s.ctx.relay.routes;
  if (s.caller.pinnedChannelId !== undefined) {
    if (excluded.size > 0) return undefined;
    const channel = routes.channel(s.caller.pinnedChannelId);
    if (!channel)
      throw new RelayError(
        403,
        `channel ${s.caller.pinnedChannelId} does not exist or is disabled`,
        "channel_disabled",
        "permission_error",
      );
    return { channel, group: s.caller.group };
  }
  for (const group of groups) {
    const channel = routes.pick(group, s.req.model, excluded);
    if (channel) return { channel, group };
  }
  return undefined;
}

/** The request's image URLs made inline data, in its text too: a retry on another channel sends the bytes fetched. */
async function inlinedImages({ ctx, req }: CallState): Promise<boolean> {
  const inlined = await inlineImageUrls(ctx, req.json!);
  if (inlined) req.raw = JSON.stringify(req.json);
  return inlined;
}

function upstreamCall(s: CallState, upstreamModel: string, provider: Provider): UpstreamCall {
  // A family that translates builds its own body from the parsed request: the OpenAI body is not made.
  if (provider.mapResponse) {
    const { req } = s;
    return {
      path: req.path,
      model: upstreamModel,
      // Read only by a family given no json: the request's text is not made otherwise.
      get body() {
        return req.raw;
      },
      contentType: "application/json",
      stream: s.req.stream,
      json: s.req.json,
    };
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
    const served = !provider.endpoints || provider.endpoints.has(s.endpoint.kind);
    // A family that speaks the client's dialect takes the call as it came, whatever it translates.
    if (served || passesThrough(familyOf(provider), s.req.inbound, picked.channel.row))
      return { ...picked, provider, unserved };
    unserved = unservedEndpoint(s, picked.channel);
    excluded.add(picked.channel.row.id);
  }
}

/** The refusal for an endpoint the channel's family does not serve; nothing is sent upstream. */
function unservedEndpoint(s: CallState, channel: RouteChannel): AttemptResult & { ok: false } {
  const family = channelTypeName(channel.row.type);
  return {
    ok: false,
    failure: {
      status: 400,
      message: claimantOf(channel.row.type)
        ? `${s.req.path} is not supported by ${family} channels (channel type ${channel.row.type})`
        : unservedMessage(channel.row.type),
    },
    upstreamCode: "unsupported_endpoint",
    upstreamType: "invalid_request_error",
  };
}

/** A failure that qualifies disables the channel, or for a multi-key channel only the key it used. */
async function noteFailure(s: CallState, channel: RouteChannel, failure: AttemptFailure, keyIndex?: number) {
  s.ctx.relay.metrics.upstreamFailed(channel.row.id, failure.status);
  if (!channel.row.auto_ban || !s.ctx.options.bool("AutomaticDisableChannelEnabled")) return;
  const reason = disableReason(s.ctx, failure);
  if (!reason) return;
  const id = channel.row.id;
  const disabled =
    keyIndex === undefined
      ? setChannelStatus(s.ctx, id, ChannelStatus.AutoDisabled, reason)
      : autoDisableKey(s.ctx, id, keyIndex, reason);
  // The table is reloaded before the call goes on, so no later call of this instance picks the channel meanwhile.
  if (await disabled.catch(() => false)) await s.ctx.relay.routes.rebuild().catch(() => {});
}

/** A multi-key channel with the key this attempt uses in place of its list; undefined when no key is enabled. */
function keyedChannel(channel: RouteChannel): { channel: RouteChannel; keyIndex?: number } | undefined {
  if (!channel.multiKey) return { channel };
  const picked = pickKey(channel.row.id, channel.multiKey.info, channel.multiKey.keys);
  return picked && { channel: { ...channel, row: { ...channel.row, key: picked.key } }, keyIndex: picked.index };
}

const NO_AVAILABLE_KEY: AttemptResult & { ok: false } = {
  ok: false,
  failure: { status: 0, message: "every key of the channel is disabled" },
  upstreamCode: "channel:no_available_key",
};

/**
 * An upstream's 401 or 403 is about the channel's own key or account: relayed as such a status (or with the
 * upstream's code, e.g. invalid_api_key), a client would read it as its gateway key failing.
 */
function upstreamRefusedCredentials(status: number, message: string): RelayError {
  return new RelayError(
    502,
    `the upstream refused this channel's credentials (HTTP ${status}): ${message}`,
    "upstream_auth_error",
    "upstream_error",
  );
}

function finalFailure(last: (AttemptResult & { ok: false }) | undefined, s: CallState, group: string): RelayError {
  if (!last) {
    return new RelayError(
      503,
      `no available channel for model ${s.req.model} in group ${group}`,
      "model_not_found",
      "tollgate_error",
      5,
    );
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

/**
 * A stream's callbacks live as long as the stream: made out here, their scope holds what they use and not the
 * call's state (its request's text and headers).
 */
const remembersReplies = (where: Parameters<typeof rememberReply>[1]) => (id: string) => rememberReply(id, where);

/**
 * One try of the call on `channel`: in the client's own dialect (`native`), or as `provider` builds it (images
 * inlined first when it needs their bytes). A function of its own rather than a closure in the loop: a call waiting
 * for its first token keeps no closure, scope or suspended frame of it.
 */
function attemptOn(
  s: CallState,
  channel: RouteChannel,
  provider: Provider,
  upstreamModel: string,
  native: boolean,
): Promise<AttemptResult> {
  const { ctx, req } = s;
  const refusal = native ? undefined : req.inbound?.dialect.untranslatable?.(req.inbound.body);
  if (refusal) return Promise.reject(refusal);
  if (!native && provider.needsImageBytes && req.json && s.endpoint.kind === "chat" && !s.imagesInlined)
    return (s.imagesInlined = inlinedImages(s)).then(() => attemptOn(s, channel, provider, upstreamModel, native));
  const via = native ? nativeProvider(familyOf(provider), provider, req.inbound!) : provider;
  const call = native ? nativeCall(req.inbound!, upstreamModel, req.stream) : upstreamCall(s, upstreamModel, provider);
  const gate = upstreamGate(ctx.options);
  return attemptUpstream(channel, call, ctx.config.relayTimeoutMs, gate, via, s.clientHeaders);
}

/** Tries channels until one answers 2xx: a failed channel is excluded for the rest of the call. */
async function tryChannels(s: CallState, groups: string[], charge: CallCharge): Promise<Response> {
  const { ctx, caller, req } = s;
  const excluded = new Set<number>();
  const retries = caller.pinnedChannelId === undefined ? ctx.options.num("RetryTimes") : 0;
  let last: (AttemptResult & { ok: false }) | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    const next = pickServing(s, groups, excluded);
    last = next.unserved ?? last;
    if (!("channel" in next)) break;
    const { group, provider } = next;
    s.channelsTried.push(next.channel.row.id);
    const keyed = keyedChannel(next.channel);
    if (!keyed) {
      last = NO_AVAILABLE_KEY;
      excluded.add(next.channel.row.id);
      continue;
    }
    const { channel, keyIndex } = keyed;
    const upstreamModel = mapModel(channel.modelMapping, req.model);
    const family = familyOf(provider);
    let native = passesThrough(family, req.inbound, channel.row);
    let result = await attemptOn(s, channel, provider, upstreamModel, native);
    // An upstream without the dialect's endpoint: the same call, translated, on the same channel.
    if (
      !result.ok &&
      native &&
      translatesAfter(req.inbound!, channel.row, result.failure.status, result.upstreamCode)
    ) {
      native = false;
      result = await attemptOn(s, channel, provider, upstreamModel, false);
    }
    if (result.ok) {
      s.multiKeyIndex = keyIndex;
      const notes = native ? undefined : req.inbound?.notes;
      charge.answeredBy(channel.row.id, group, upstreamModel, family, notes);
      if (native) {
        const idleTimeoutMs = ctx.config.streamingTimeoutMs;
        const onReplyId = remembersReplies({ channelId: channel.row.id, userId: caller.user.id, model: upstreamModel });
        const at = { stream: req.stream, startedAt: s.startedAt, requestId: s.requestId, idleTimeoutMs, onReplyId };
        return deliverNative(result.response, req.inbound!, charge, at, sseHeaders(s.requestId));
      }
      const reply = await deliver(s, channel, result.response, provider, upstreamModel, charge);
      if (reply instanceof Response) return req.inbound ? inDialect(reply, req.inbound, req.model, req.stream) : reply;
      return wholeInDialect(reply, req.inbound!, req.model, sseHeaders(s.requestId));
    }
    last = result;
    await noteFailure(s, channel, result.failure, keyIndex);
    excluded.add(channel.row.id);
    if (!shouldRetry(ctx, result.failure)) break;
  }
  const failure = finalFailure(last, s, caller.group);
  logFailure(s, failure);
  throw failure;
}

/** An error log row of a failed call, when ErrorLogEnabled. */
function logFailure(s: CallState, failure: RelayError): void {
  if (!s.ctx.options.bool("ErrorLogEnabled")) return;
  const { status, code, message } = failure;
  const { req, caller } = s;
  s.ctx.relay.book.record(
    errorLog({ ...s, model: req.model, group: caller.group, path: req.path, status, code, message }),
  );
}

/**
 * One relayed call: open its charge (priced, fail closed, and held), then try channels — highest tier first, a
 * failed channel excluded for the rest of the call, up to RetryTimes more — and bill the exact cost from the
 * upstream's usage. The charge is always released or settled, whatever happens (a stream settles when it ends).
 */
export async function runRelay(call: Omit<CallState, "channelsTried">): Promise<Response> {
  const { ctx, caller, req } = call;
  checkModelAllowed(caller.token, req.model);
  const succeeded = ctx.options.bool("ModelRequestRateLimitEnabled")
    ? await admitModelRequest(ctx, caller.user.id, caller.group)
    : undefined;
  const { endpoint, requestId, ip, startedAt, clientHeaders } = call;
  const userAgent = clientHeaders?.get("user-agent") ?? undefined;
  const s: CallState = {
    ctx,
    caller,
    endpoint,
    req,
    requestId,
    ip,
    userAgent,
    startedAt,
    clientHeaders,
    channelsTried: [],
  };
  if (promptCheckOn(ctx)) screenPrompt(s, logFailure);
  const routes = ctx.relay.routes;
  const pinned = caller.pinnedChannelId !== undefined;
  const groups = pinned
    ? [caller.group]
    : routeGroups(ctx, caller.user, caller.group).filter((g) => routes.hasRoute(g, req.model));
  if (groups.length === 0) throw finalFailure(undefined, s, caller.group);
  const opened = CallCharge.open(s, groups[0]!);
  const charge = opened instanceof Promise ? await opened : opened;
  let delivered = false;
  try {
    if (trafficLimited(ctx, caller)) charge.afterwards = await admitTraffic(ctx, caller, charge.estimatedTokens);
    const response = await tryChannels(s, groups, charge);
    delivered = true;
    succeeded?.();
    // A reply settled here (whole, or a stream that arrived whole) goes out once its charge is on disk. A stream
    // still open is not held for other calls' charges: it waits for its own before its end (EventRelay).
    const durable = charge.settled ? ctx.relay.book.durable() : undefined;
    if (durable) await durable;
    return response;
  } finally {
    if (!delivered) charge.release();
  }
}

/** A translating family's JSON reply, in OpenAI's shape, billed from the usage it reported. */
async function deliverTranslated(
  s: CallState,
  read: () => Promise<Record<string, unknown>>,
  charge: CallCharge,
): Promise<Response> {
  let reply: Record<string, unknown>;
  try {
    reply = await read();
  } catch (error) {
    if (error instanceof RelayError) throw error;
    throw new RelayError(502, "the upstream's reply could not be read", "bad_response_body", "upstream_error");
  }
  const usage = reportedUsage(s.endpoint.kind, reply);
  const text = usage ? "" : generatedText(s.endpoint.kind, reply);
  await charge.settleWhole(usage, text, Date.now() - s.startedAt);
  return new Response(JSON.stringify(reply), {
    status: 200,
    headers: { "content-type": "application/json", "x-tollgate-request-id": s.requestId },
  });
}

/** Hands the upstream's answer to the client and bills it (after the stream ends, for streams). */
async function deliver(
  s: CallState,
  channel: RouteChannel,
  response: UpstreamReply,
  provider: Provider,
  upstreamModel: string,
  charge: CallCharge,
): Promise<Response | WholePivot> {
  const contentType = response.header("content-type") ?? "";
  const { mapStream, mapWholeStream, mapResponse } = provider;
  if (s.req.stream && contentType.includes(provider.streamContentType ?? "text/event-stream")) {
    // A translated stream that arrived whole is mapped at once, and relayed whole like a pivot one.
    const upstreamArrived = mapStream && !mapWholeStream ? undefined : response.arrived();
    const translatesWhole = s.req.inbound?.dialect.wholeStreamFromChat !== undefined && s.req.clientWantsUsage;
    // For a client dialect that translates objects, the pivot's text is written only if it must be relayed as bytes.
    const events =
      upstreamArrived && translatesWhole
        ? provider.mapWholeEvents?.(upstreamArrived, upstreamModel, streamWording(s.ctx))
        : undefined;
    const usage = events && wholePivotUsage(events, s.endpoint.kind);
    if (usage) {
      charge.settle(usage, "", Date.now() - s.startedAt, "done");
      return { events: events! };
    }
    const arrived = events
      ? pivotText(events)
      : upstreamArrived && mapWholeStream
        ? mapWholeStream(upstreamArrived, upstreamModel, streamWording(s.ctx))
        : upstreamArrived;
    const whole = wholeStreamIn(arrived, s.endpoint.kind, s.req.clientWantsUsage);
    if (whole) {
      charge.settle(whole.usage, "", Date.now() - s.startedAt, "done");
      return translatesWhole ? { bytes: whole.body } : wholeStreamResponse(whole.body, sseHeaders(s.requestId));
    }
    const shape: StreamShape = {
      kind: s.endpoint.kind,
      upstream: arrived
        ? bytesReader(arrived)
        : provider.streamMapper
          ? mappedReader(response.reader(), provider.streamMapper(upstreamModel, streamWording(s.ctx)))
          : mapStream
            ? mapStream(response.stream(), upstreamModel, streamWording(s.ctx)).getReader()
            : response.reader(),
      clientWantsUsage: s.req.clientWantsUsage,
      startedAt: s.startedAt,
      idleTimeoutMs: s.ctx.config.streamingTimeoutMs,
      drainMs: DRAIN_MS,
      pingSeconds: s.ctx.config.streamPingSeconds,
    };
    const body = await relayStream(new BilledStream(shape, charge, s.ctx.relay.book));
    return new Response(body, { status: 200, headers: sseHeaders(s.requestId) });
  }
  if (provider.streamsOnly && mapStream) {
    const secrets = [channel.row.key, channel.row.base_url];
    return deliverTranslated(s, () => streamOnlyReply(response, provider, upstreamModel, secrets), charge);
  }
  if (mapResponse)
    return deliverTranslated(s, async () => mapResponse(JSON.parse(await response.text()), upstreamModel), charge);
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
  await charge.settleWhole(usage, text, Date.now() - s.startedAt);
  const headers: Record<string, string> = { "x-tollgate-request-id": s.requestId };
  if (contentType) headers["content-type"] = contentType;
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status: response.status, headers });
}
