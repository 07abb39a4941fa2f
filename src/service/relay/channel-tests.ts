import { channelIdsWithStatus, findChannel, updateChannels } from "../../db/queries/channels";
import type { ChannelRow } from "../../db/schema";
import { ChannelStatus } from "../../shared/channel-types";
import { setChannelStatus } from "../channels/status";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import { disableReason, type AttemptFailure } from "./retry-policy";

/** What one test request against one channel gave. */
export type ProbeResult = { ok: true; ms: number } | { ok: false; ms: number; failure: AttemptFailure };

/** Sends the minimal test request through the relay's own path (the gateway supplies it). */
export type Probe = (channel: ChannelRow, model: string) => Promise<ProbeResult>;

export const TEST_ALREADY_RUNNING = "test already running";
const running = new WeakSet<ServiceContext>();

/** The model a test uses: the one asked for, the channel's test_model, its first model, else gpt-4o-mini. */
export function testModelOf(channel: ChannelRow, requested?: string): string {
  return requested?.trim() || channel.test_model.trim() || channel.models.split(",")[0]?.trim() || "gpt-4o-mini";
}

async function record(ctx: ServiceContext, id: number, ms: number): Promise<void> {
  await updateChannels(ctx.db, [id], { response_time: ms, test_time: nowSeconds() });
}

/** Tests one channel (admin: never disables or enables it); answers {success, message, time in seconds}. */
export async function testChannel(ctx: ServiceContext, probe: Probe, id: number, model?: string) {
  const channel = (await findChannel(ctx.db, id)) ?? refuse("channel not found");
  const result = await probe(channel, testModelOf(channel, model));
  if (result.ok) await record(ctx, id, result.ms);
  return {
    success: result.ok,
    message: result.ok ? "" : result.failure.message,
    time: result.ms / 1000,
  };
}

/** The verdict of a batch test on one channel: disable on a qualifying error or a slow answer, re-enable on success. */
async function judge(ctx: ServiceContext, channel: ChannelRow, result: ProbeResult): Promise<void> {
  const o = ctx.options;
  const threshold = o.num("ChannelDisableThreshold") * 1000;
  if (result.ok && !(threshold > 0 && result.ms > threshold)) {
    await record(ctx, channel.id, result.ms);
    if (channel.status === ChannelStatus.AutoDisabled && o.bool("AutomaticEnableChannelEnabled")) {
      await setChannelStatus(ctx, channel.id, ChannelStatus.Enabled);
    }
    return;
  }
  if (!channel.auto_ban || !o.bool("AutomaticDisableChannelEnabled") || channel.status !== ChannelStatus.Enabled)
    return;
  const reason = result.ok
    ? `response time ${(result.ms / 1000).toFixed(2)}s exceeds the threshold ${(threshold / 1000).toFixed(2)}s`
    : disableReason(ctx, result.failure);
  if (reason) await setChannelStatus(ctx, channel.id, ChannelStatus.AutoDisabled, reason);
}

/**
 * Tests channels one at a time with the verdicts above: `statuses` chooses which (every channel not disabled
 * by hand, or only the auto-disabled ones for the periodic re-test). A second run while one runs is refused.
 */
export async function testChannels(
  ctx: ServiceContext,
  probe: Probe,
  statuses: number[],
  onProgress?: (done: number, total: number) => void,
) {
  if (running.has(ctx)) refuse(TEST_ALREADY_RUNNING);
  running.add(ctx);
  try {
    const ids = await channelIdsWithStatus(ctx.db, statuses);
    let done = 0;
    for (const id of ids) {
      const channel = await findChannel(ctx.db, id);
      if (channel) await judge(ctx, channel, await probe(channel, testModelOf(channel)));
      onProgress?.(++done, ids.length);
    }
    return { tested: ids.length };
  } finally {
    running.delete(ctx);
  }
}

/** Re-tests auto-disabled channels every AutoTestChannelMinutes (0 = never, read each time); answers a stop function. */
export function scheduleRetests(ctx: ServiceContext, probe: Probe, tickMs = 60_000): () => void {
  let last = Date.now();
  const timer = setInterval(() => {
    const minutes = ctx.options.num("AutoTestChannelMinutes");
    if (minutes <= 0 || Date.now() - last < minutes * 60_000) return;
    last = Date.now();
    testChannels(ctx, probe, [ChannelStatus.AutoDisabled]).catch(() => {});
  }, tickMs);
  timer.unref();
  return () => clearInterval(timer);
}
