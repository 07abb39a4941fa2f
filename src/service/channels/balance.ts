import { channelsWithStatus, findChannel } from "../../db/queries/channels";
import type { ChannelPatch, ChannelRow, UserRow } from "../../db/schema";
import { CHANNEL_TYPES, ChannelStatus, channelTypeName } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import { upstreamGate } from "../egress/site-gate";
import { notFound, refuse, ServiceError } from "../errors";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { idOf } from "../input";
import { statusInfo } from "./status";
import type { ChannelUpstream } from "./upstream-port";
import { toChannelView, type ChannelView } from "./view";
import { patchChannels } from "./write";

const reportsBalance = (type: number): boolean => CHANNEL_TYPES.get(type)?.reportsBalance === true;

/** Stores the balance; an enabled channel with auto_ban on and nothing left is disabled automatically. */
async function refreshBalance(
  ctx: ServiceContext,
  upstream: ChannelUpstream,
  channel: ChannelRow,
): Promise<ChannelView> {
  if (!reportsBalance(channel.type))
    refuse(`balance query is not supported for channel type ${channelTypeName(channel.type)}`);
  const balance = await upstream.queryBalance(channel, upstreamGate(ctx.options));
  const patch: ChannelPatch = { balance, balance_updated_time: nowSeconds() };
  if (balance <= 0 && channel.auto_ban === 1 && channel.status === ChannelStatus.Enabled) {
    const status = ChannelStatus.AutoDisabled;
    Object.assign(patch, { status, other_info: statusInfo(status, "insufficient balance") });
  }
  await patchChannels(ctx, async () => [channel.id], patch);
  return toChannelView((await findChannel(ctx.db, channel.id)) ?? notFound("channel"));
}

export async function updateChannelBalance(
  ctx: ServiceContext,
  upstream: ChannelUpstream,
  actor: UserRow,
  id: unknown,
): Promise<ChannelView> {
  requireAdmin(actor);
  return refreshBalance(ctx, upstream, (await findChannel(ctx.db, idOf(id))) ?? notFound("channel"));
}

const PARALLEL = 4;

/** Every enabled channel: how many balances were updated, how many upstreams failed, how many types report none. */
export async function updateAllBalances(
  ctx: ServiceContext,
  upstream: ChannelUpstream,
  actor: UserRow,
): Promise<{ updated: number; failed: number; unsupported: number }> {
  requireAdmin(actor);
  const enabled = await channelsWithStatus(ctx.db, ChannelStatus.Enabled);
  const queue = enabled.filter((c) => reportsBalance(c.type));
  const counts = { updated: 0, failed: 0, unsupported: enabled.length - queue.length };
  const worker = async () => {
    for (let channel = queue.shift(); channel; channel = queue.shift()) {
      try {
        await refreshBalance(ctx, upstream, channel);
        counts.updated++;
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        counts.failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return counts;
}
