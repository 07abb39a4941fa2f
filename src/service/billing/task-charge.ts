import type { ServiceContext } from "../context";
import type { RelayCaller } from "../relay/caller";
import { clientTypeOf } from "../relay/client-type";
import { consumeLog } from "../relay/consume-log";
import { recordConsumption } from "../stats/record";
import type { Reservation } from "./book";
import { refused, relayPrice } from "./call-charge";
import type { Price } from "./pricing";
import { quotaFor } from "./quota";

const NO_USAGE = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };

/**
 * What one task costs: its ModelPrice × QuotaPerUnit × group ratio; a task model priced by ratio costs
 * round(modelRatio / 2 × QuotaPerUnit × group ratio) (it has no tokens to count).
 */
export function taskQuota(price: Price, quotaPerUnit: number): number {
  if (price.kind === "per-call") return quotaFor(price, NO_USAGE, quotaPerUnit);
  return Math.round((price.modelRatio / 2) * quotaPerUnit * price.groupRatio);
}

/** What a task's submission is, for its charge and log row. */
export interface TaskCall {
  ctx: ServiceContext;
  caller: RelayCaller;
  /** The priced model of the action, e.g. mj_imagine or suno_music. */
  model: string;
  /** "midjourney" or "suno": the log row's inbound dialect and family. */
  platform: string;
  requestId: string;
  ip: string;
  /** The client's User-Agent: the log row names the kind of client. */
  userAgent?: string;
  startedAt: number;
}

/**
 * The money of one task's submission: `open` prices the action in a group and holds its whole cost (tasks are
 * pre-charged in full, never trusted); `settle` bills that cost once the upstream took the task (its log row
 * names the channel and the task); `release` gives the hold back when no channel took it. A task that later
 * fails or times out is refunded by `refundTask` (src/service/tasks/finish.ts), exactly once.
 */
export class TaskCharge {
  private reservation: Reservation | undefined;

  private constructor(
    private readonly call: TaskCall,
    private price: Price,
    private group: string,
    readonly quota: number,
  ) {}

  static async open(call: TaskCall, group: string): Promise<TaskCharge> {
    const price = relayPrice(call.ctx, call.model, group, call.caller);
    const charge = new TaskCharge(call, price, group, taskQuota(price, call.ctx.options.num("QuotaPerUnit")));
    const { caller } = call;
    const token = caller.token ? { id: caller.token.id, unlimited: caller.token.unlimited_quota === 1 } : null;
    try {
      charge.reservation = await call.ctx.relay.book.reserve(caller.user.id, token, charge.quota);
    } catch (error) {
      refused(error);
    }
    return charge;
  }

  /** Bills the held cost to the channel that took task `taskId` (its log row says which task). */
  settle(channelId: number, upstreamModel: string, taskId: string, channelsTried: number[]): void {
    const { ctx, caller, model, platform } = this.call;
    const log = ctx.options.bool("LogConsumeEnabled")
      ? consumeLog({
          caller,
          model,
          upstreamModel,
          group: this.group,
          price: this.price,
          usage: NO_USAGE,
          estimated: false,
          quota: this.quota,
          channelId,
          channelsTried,
          stream: false,
          startedAt: this.call.startedAt,
          firstResponseMs: Date.now() - this.call.startedAt,
          requestId: this.call.requestId,
          ip: this.call.ip,
          inbound: platform,
          family: platform,
          clientType: clientTypeOf(this.call.userAgent),
          notes: { task_id: taskId },
        })
      : null;
    ctx.relay.book.settle(this.reservation!, { channelId, quota: this.quota, log });
    recordConsumption(ctx, {
      userId: caller.user.id,
      username: caller.user.username,
      model,
      quota: this.quota,
      tokens: 0,
    });
  }

  release(): void {
    if (this.reservation) this.call.ctx.relay.book.release(this.reservation);
  }
}
