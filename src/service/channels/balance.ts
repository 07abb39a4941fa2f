import { channelsWithStatus, findChannel } from "../../db/queries/channels";
import type { ChannelPatch, ChannelRow, UserRow } from "../../db/schema";
import { ChannelStatus, channelTypeName } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import type { UpstreamGate } from "../egress/gate";
import { upstreamGate } from "../egress/site-gate";
import { notFound, refuse, ServiceError } from "../errors";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { idOf } from "../input";
import { statusInfo } from "./status";
import { bearerHeaders, getUpstreamJson, upstreamBaseOf } from "./upstream";
import { toChannelView, type ChannelView } from "./view";
import { patchChannels } from "./write";

const WHAT = "querying the balance";
/** OpenAI and Custom report a balance through the OpenAI dashboard billing calls. */
const REPORTING_TYPES = new Set([1, 8]);
const DAY = 86400;
const dateOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** The subscription's hard limit (USD) less the usage of the last 100 days (cents). */
async function upstreamBalance(channel: ChannelRow, gate: UpstreamGate): Promise<number> {
  if (!REPORTING_TYPES.has(channel.type)) refuse(`balance query is not supported for channel type ${channelTypeName(channel.type)}`);
  const base = upstreamBaseOf(channel) || refuse(`${WHAT} failed: the channel has no base URL`);
  const auth = bearerHeaders(channel.key);
  const subscription = await getUpstreamJson(`${base}/v1/dashboard/billing/subscription`, auth, WHAT, gate);
  const now = nowSeconds();
  const period = `start_date=${dateOf(now - 100 * DAY)}&end_date=${dateOf(now + DAY)}`;
  const usage = await getUpstreamJson(`${base}/v1/dashboard/billing/usage?${period}`, auth, WHAT, gate);
  const limit = (subscription as { hard_limit_usd?: unknown } | null)?.hard_limit_usd;
  const used = (usage as { total_usage?: unknown } | null)?.total_usage;
  if (typeof limit !== "number" || typeof used !== "number") refuse(`${WHAT} failed: the upstream reply is not a balance`);
  return (limit as number) - (used as number) / 100;
}

/** Stores the balance; an enabled channel with auto_ban on and nothing left is disabled automatically. */
async function refreshBalance(ctx: ServiceContext, channel: ChannelRow): Promise<ChannelView> {
  const balance = await upstreamBalance(channel, upstreamGate(ctx.options));
  const patch: ChannelPatch = { balance, balance_updated_time: nowSeconds() };
  if (balance <= 0 && channel.auto_ban === 1 && channel.status === ChannelStatus.Enabled) {
    const status = ChannelStatus.AutoDisabled;
    Object.assign(patch, { status, other_info: statusInfo(status, "insufficient balance") });
  }
  await patchChannels(ctx, async () => [channel.id], patch);
  return toChannelView((await findChannel(ctx.db, channel.id)) ?? notFound("channel"));
}

export async function updateChannelBalance(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<ChannelView> {
  requireAdmin(actor);
  return refreshBalance(ctx, (await findChannel(ctx.db, idOf(id))) ?? notFound("channel"));
}

const PARALLEL = 4;

/** Every enabled channel: how many balances were updated, how many upstreams failed, how many types report none. */
export async function updateAllBalances(
  ctx: ServiceContext,
  actor: UserRow,
): Promise<{ updated: number; failed: number; unsupported: number }> {
  requireAdmin(actor);
  const enabled = await channelsWithStatus(ctx.db, ChannelStatus.Enabled);
  const queue = enabled.filter((c) => REPORTING_TYPES.has(c.type));
  const counts = { updated: 0, failed: 0, unsupported: enabled.length - queue.length };
  const worker = async () => {
    for (let channel = queue.shift(); channel; channel = queue.shift()) {
      try {
        await refreshBalance(ctx, channel);
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
