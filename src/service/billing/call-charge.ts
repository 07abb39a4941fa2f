import type { ServiceContext } from "../context";
import type { RelayCaller } from "../relay/caller";
import { clientTypeOf } from "../relay/client-type";
import { consumeLog } from "../relay/consume-log";
import { completionBudget, promptFitsIn, promptParts, type Endpoint } from "../relay/endpoints";
import { invalidRequest, RelayError } from "../relay/errors";
import { trafficLimited } from "../relay/token-rate-limit";
import { recordConsumption } from "../stats/record";
import type { HeldToken, Reservation } from "./book";
import { InsufficientQuotaError } from "./insufficient";
import { countParts, countPartsOffThread, countTextTokens, type PromptParts } from "./estimate";
import { priceOf, UnpricedModelError, type Price } from "./pricing";
import { quotaFor, reservationFor, type Usage } from "./quota";

/** The call a charge is for, as plain data (the relay's own call state is one). */
export interface ChargedCall {
  ctx: ServiceContext;
  caller: RelayCaller;
  endpoint: Endpoint;
  /**
   * The request: `raw` is its JSON text ("" for form data), `json` its parsed body (for another inbound dialect,
   * its OpenAI-shaped translation); `inbound` names that dialect.
   */
  req: {
    model: string;
    stream: boolean;
    raw: string;
    json?: Record<string, any>;
    inbound?: { dialect: { name: string } };
  };
  requestId: string;
  ip: string;
  /** The client's User-Agent header ("" or absent when it sent none): the log row names the kind of client. */
  userAgent?: string;
  startedAt: number;
  /** Every channel tried so far, in order (the log row names them). */
  channelsTried: number[];
  /** The key of a multi-key channel that answered (its index), for the log row's admin info. */
  multiKeyIndex?: number;
}

/**
 * What the bill still reads of a call that a channel answered: a stream's charge lives as long as the stream, the
 * request's text, headers and dialect body need not. The parsed body stays only for a whole reply's small prompt,
 * counted at settle if the upstream reports no usage (a stream keeps its prompt's parts instead: see answeredBy).
 */
function billedPart(call: ChargedCall, promptCounted: boolean): ChargedCall {
  const { ctx, caller, endpoint, requestId, ip, userAgent, startedAt, channelsTried, multiKeyIndex, req } = call;
  const { model, stream, json, inbound } = req;
  return {
    ctx,
    caller,
    endpoint,
    requestId,
    ip,
    userAgent,
    startedAt,
    channelsTried,
    multiKeyIndex,
    req: {
      model,
      stream,
      raw: "",
      json: promptCounted ? undefined : json,
      inbound: inbound && { dialect: { name: inbound.dialect.name } },
    },
  };
}

/** A balance that cannot cover the hold, as the relay refuses it. */
export function refused(error: unknown): never {
  if (!(error instanceof InsufficientQuotaError)) throw error;
  const code = error.who === "user" ? "insufficient_user_quota" : "pre_consume_token_quota_failed";
  throw new RelayError(
    403,
    `${error.who === "user" ? "user" : "API key"} quota is not enough for this request`,
    code,
    "insufficient_quota",
  );
}

/** The price of the call's model through `group`; fails closed on an unpriced model. */
const priceIn = (call: ChargedCall, group: string): Price => relayPrice(call.ctx, call.req.model, group, call.caller);

/** The price of `model` for the caller through `group`, refused in the relay's shape when the model is unpriced. */
export function relayPrice(ctx: ServiceContext, model: string, group: string, caller: RelayCaller): Price {
  try {
    return priceOf(ctx, model, group, caller.user.group);
  } catch (error) {
    if (error instanceof UnpricedModelError) throw invalidRequest(error.message, "model_price_error");
    throw error;
  }
}

/**
 * The money of one relayed call, where it is priced: `open` prices the model in the first route group and holds
 * the call's worst honest cost; `answeredBy` names the channel that answered (its group's price is the one
 * billed); `settle` turns the hold into the exact charge with its log row and rollup; `release` gives it back
 * when nothing is billable. A per-call price counts the request's `n` calls.
 */
export class CallCharge {
  private price: Price;
  private group: string;
  /** Calls billed: the request's `n` (at least 1) for a per-call price, else 1. */
  private readonly calls: number;
  private reservation: Reservation | undefined = undefined;
  /** The prompt's token count, once counted (a small prompt is held at the floor without counting). */
  private promptTokens: number | undefined = undefined;
  /**
   * The prompt's parts while it is uncounted: a long prompt held at its size (see holdUncounted) until the counting
   * thread has counted it, or a stream's small prompt, for a count at settle when no usage comes.
   */
  private uncounted: PromptParts | undefined = undefined;
  private channelId = 0;
  private upstreamModel = "";
  private family = "";
  private notes: Record<string, unknown> | undefined = undefined;
  /** The tokens the hold was made for: the prompt (or the floor, uncounted) and the completion budget. */
  estimatedTokens = 0;
  /** Told the call's real tokens once it settles (0 when released): the token-rate windows' settlement. */
  afterwards: ((tokens: number) => void) | undefined = undefined;
  /** Whether the call was billed (a stream's only when it ended). */
  settled = false;

  private constructor(
    private call: ChargedCall,
    group: string,
  ) {
    this.price = priceIn(call, group);
    this.group = group;
    this.calls = this.price.kind === "per-call" ? Math.max(1, Number(call.req.json?.n) || 1) : 1;
  }

  /**
   * Prices the call in `group` and holds its cost: at once (no promise) when the caller's balances are in memory
   * and cover it. A small prompt is held at the PreConsumedQuota floor without counting; a longer one at its UTF-8
   * size when that is covered at once (see holdUncounted); otherwise it is first held at the floor (a caller who
   * cannot pay even that is refused before any tokenizer runs), then counted on the counting thread (the server's
   * thread goes on with other requests), then held at its count.
   */
  static open(call: ChargedCall, group: string): CallCharge | Promise<CallCharge> {
    const charge = new CallCharge(call, group);
    const { ctx, endpoint, req } = call;
    const floor = ctx.options.num("PreConsumedQuota");
    if (promptFitsIn(req.raw, floor)) return charge.hold(floor);
    const parts = promptParts(endpoint.kind, req.json ?? {});
    return charge.holdUncounted(parts, floor) ?? charge.holdCounted(parts, floor);
  }

  /** Holds the prompt (at least PreConsumedQuota tokens) plus its completion budget, priced like the bill. */
  private hold(promptTokens: number): CallCharge | Promise<CallCharge> {
    const amount = this.amountFor(promptTokens);
    const token = this.tokenOf();
    let held: Reservation | undefined;
    try {
      held = this.call.ctx.relay.book.reserveAtOnce(this.call.caller.user.id, token, amount);
    } catch (error) {
      refused(error);
    }
    if (!held) return this.holdLoaded(token, amount);
    this.reservation = held;
    return this;
  }

  /**
   * Holds a long prompt uncounted, at its UTF-8 size (no token is shorter than a byte, so that covers its count),
   * when the caller's balances cover it at once and no token-rate limit reads the hold (a limit takes the hold's
   * tokens for the call's); undefined otherwise, and the prompt is counted first. Counting a 32 KiB prompt on the
   * call's way cost ~0.7 ms of the server's thread and ~700 KB of its garbage for a hold: nearly every upstream
   * reports the usage that bills the call. A stream still counts it, on the counting thread once a channel answered
   * (see answeredBy), so that it need not keep the prompt for a reply without usage.
   */
  private holdUncounted(parts: PromptParts, floor: number): CallCharge | undefined {
    const { ctx, caller } = this.call;
    if (trafficLimited(ctx, caller)) return undefined;
    let bytes = parts.fixed;
    for (const text of parts.texts) bytes += Buffer.byteLength(text);
    try {
      const held = ctx.relay.book.reserveAtOnce(caller.user.id, this.tokenOf(), this.amountFor(Math.max(floor, bytes)));
      if (!held) return undefined;
      this.reservation = held;
      this.uncounted = parts;
      return this;
    } catch (error) {
      // Not covered: counted, and held at the count.
      if (error instanceof InsufficientQuotaError) return undefined;
      throw error;
    }
  }

  /** What a hold of `promptTokens` and the completion budget costs, priced like the bill (noted in estimatedTokens). */
  private amountFor(promptTokens: number): number {
    const { ctx, endpoint, req } = this.call;
    const estimate = { promptTokens, maxCompletionTokens: completionBudget(endpoint.kind, req.json ?? {}) };
    this.estimatedTokens = promptTokens + (estimate.maxCompletionTokens ?? 0);
    const perCall = reservationFor(
      this.price,
      estimate,
      ctx.options.num("PreConsumedQuota"),
      ctx.options.num("QuotaPerUnit"),
    );
    return perCall * this.calls;
  }

  private tokenOf(): HeldToken | null {
    const { token } = this.call.caller;
    return token ? { id: token.id, unlimited: token.unlimited_quota === 1 } : null;
  }

  /** `hold` for a balance the book must load first. */
  private async holdLoaded(token: HeldToken | null, amount: number): Promise<CallCharge> {
    try {
      this.reservation = await this.call.ctx.relay.book.reserve(this.call.caller.user.id, token, amount);
    } catch (error) {
      refused(error);
    }
    return this;
  }

  private async holdCounted(parts: PromptParts, floor: number): Promise<CallCharge> {
    await this.hold(floor);
    const minimum = this.reservation!;
    let counted: number;
    try {
      counted = await countPartsOffThread(this.call.req.model, parts);
    } finally {
      this.call.ctx.relay.book.release(minimum);
    }
    this.promptTokens = counted;
    return this.hold(counted);
  }

  /**
   * The channel that answered, through `group`, of provider `family`: the call is billed at that group's price.
   * `notes` go to the log row's `other` (e.g. the tools a translated call left out).
   */
  answeredBy(
    channelId: number,
    group: string,
    upstreamModel: string,
    family = "openai",
    notes?: Record<string, unknown>,
  ): void {
    if (group !== this.group) {
      this.price = priceIn(this.call, group);
      this.group = group;
    }
    this.channelId = channelId;
    this.upstreamModel = upstreamModel;
    this.family = family;
    this.notes = notes;
    if (this.call.req.stream && this.promptTokens === undefined) {
      if (this.uncounted) this.countOffThread(this.uncounted);
      // A small prompt: its parts are what a count at settle reads, fewer objects than the parsed body it came in.
      else this.uncounted = this.promptToCount();
    }
    this.call = billedPart(this.call, this.promptTokens !== undefined || this.uncounted !== undefined);
  }

  /**
   * Counts an uncounted prompt on the counting thread, for a reply without usage: a stream lives long, and keeping
   * its request for a count at settle cost each open stream a copy of the prompt. Until the count comes back only
   * the prompt's parts are kept.
   */
  private countOffThread(parts: PromptParts): void {
    const settleCount = (tokens: number) => {
      this.promptTokens ??= tokens;
      this.uncounted = undefined;
    };
    countPartsOffThread(this.call.req.model, parts).then(settleCount, () => {});
  }

  /**
   * Usage as we count it when the upstream reported none: the prompt's estimate and `text`'s tokens, counted now
   * (the server's thread waits for the counting thread), for a stream's end, which writes it before [DONE].
   */
  countedUsage(text: string): Usage {
    const { model } = this.call.req;
    this.promptTokens ??= countParts(model, this.promptToCount());
    this.uncounted = undefined;
    return { promptTokens: this.promptTokens, completionTokens: countTextTokens(model, text), cachedTokens: 0 };
  }

  /** The prompt's parts for a count at settle: those kept when it was held uncounted, else the request's. */
  private promptToCount(): PromptParts {
    return this.uncounted ?? promptParts(this.call.endpoint.kind, this.call.req.json ?? {});
  }

  /**
   * `settle` for a whole reply, which can wait for its count: a reply without usage is counted on the counting
   * thread while the server's thread goes on (a stream's end cannot wait, see countedUsage).
   */
  settleWhole(reported: Usage | undefined, text: string, firstResponseMs: number): void | Promise<void> {
    if (reported) return this.settle(reported, text, firstResponseMs);
    return this.usageOffThread(text).then((usage) => this.bill(usage, true, firstResponseMs, undefined));
  }

  private async usageOffThread(text: string): Promise<Usage> {
    const { model } = this.call.req;
    const [promptTokens, completionTokens] = await Promise.all([
      this.promptTokens ?? countPartsOffThread(model, this.promptToCount()),
      text ? countPartsOffThread(model, { texts: [text], fixed: 0 }) : 0,
    ]);
    this.promptTokens ??= promptTokens;
    this.uncounted = undefined;
    return { promptTokens: this.promptTokens, completionTokens, cachedTokens: 0 };
  }

  /**
   * Bills the exact cost of `reported` usage, or of the counted usage of `text` when the upstream reported none:
   * the charge and its log row go to the book (its journal has them before the reply is answered), the
   * dashboard rollup counts them. Only the first settle or release of a call counts.
   */
  settle(reported: Usage | undefined, text: string, firstResponseMs: number, streamEnd?: string): void {
    this.bill(reported ?? this.countedUsage(text), !reported, firstResponseMs, streamEnd);
  }

  private bill(usage: Usage, estimated: boolean, firstResponseMs: number, streamEnd: string | undefined): void {
    const { ctx, caller, req } = this.call;
    this.settled = true;
    const quota = quotaFor(this.price, usage, ctx.options.num("QuotaPerUnit")) * this.calls;
    const log = ctx.options.bool("LogConsumeEnabled")
      ? this.logRow(usage, estimated, quota, firstResponseMs, streamEnd)
      : null;
    ctx.relay.book.settle(this.reservation!, { channelId: this.channelId, quota, log });
    ctx.relay.metrics.settled({
      endpoint: this.call.endpoint.kind,
      model: req.model,
      channel: this.channelId,
      seconds: (Date.now() - this.call.startedAt) / 1000,
      firstByteSeconds: firstResponseMs / 1000,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      quota,
    });
    recordConsumption(ctx, {
      userId: caller.user.id,
      username: caller.user.username,
      model: req.model,
      quota,
      tokens: usage.promptTokens + usage.completionTokens,
    });
    this.settleTraffic(usage.promptTokens + usage.completionTokens);
  }

  private logRow(
    usage: Usage,
    estimated: boolean,
    quota: number,
    firstResponseMs: number,
    streamEnd: string | undefined,
  ) {
    const c = this.call;
    return consumeLog({
      caller: c.caller,
      model: c.req.model,
      upstreamModel: this.upstreamModel,
      group: this.group,
      price: this.price,
      usage,
      estimated,
      quota,
      channelId: this.channelId,
      channelsTried: c.channelsTried,
      multiKeyIndex: c.multiKeyIndex,
      stream: c.req.stream,
      startedAt: c.startedAt,
      firstResponseMs,
      requestId: c.requestId,
      ip: c.ip,
      streamEnd,
      inbound: c.req.inbound?.dialect.name ?? "openai",
      family: this.family,
      clientType: clientTypeOf(c.userAgent),
      notes: this.notes,
    });
  }

  /** Gives the hold back: nothing of the call is billable. */
  release(): void {
    this.call.ctx.relay.book.release(this.reservation!);
    this.settleTraffic(0);
  }

  private settleTraffic(tokens: number): void {
    const afterwards = this.afterwards;
    this.afterwards = undefined;
    afterwards?.(tokens);
  }
}
