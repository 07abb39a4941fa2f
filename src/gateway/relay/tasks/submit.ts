import { TaskCharge } from "../../../service/billing/task-charge";
import type { ServiceContext } from "../../../service/context";
import { checkModelAllowed, type RelayCaller } from "../../../service/relay/caller";
import { maskUpstreamText } from "../../../service/relay/mask";
import { RelayError } from "../../../service/relay/errors";
import { routeGroups } from "../../../service/relay/route-groups";
import type { RouteChannel } from "../../../service/relay/routing-table";
import { providerFor } from "../providers/registry";
import type { TaskFamily, TaskSubmission } from "../providers/types";
import { callTaskUpstream } from "./upstream-call";

/** What a client's task submission is, for the channel loop. */
export interface TaskSubmit {
  ctx: ServiceContext;
  caller: RelayCaller;
  /** The task family's platform (midjourney, suno): only its channels are tried. */
  platform: string;
  /** The priced model (also the routed one). */
  model: string;
  /** The upstream path (the client's, mode prefix included). */
  path: string;
  body: string;
  /** The channel that must take it (an action on an earlier task goes to that task's channel). */
  channelId?: number;
  requestId: string;
  ip: string;
  userAgent?: string;
  startedAt: number;
}

/** A submission the upstream took, billed. */
export interface TakenSubmission {
  channel: RouteChannel;
  submission: TaskSubmission & { taken: true };
  quota: number;
}

/** Said when every channel's queue is full (compat §4.3: Midjourney code 30, HTTP 429). */
export const SATURATED = "当前分组负载已饱和，请稍后再试，或升级账户以提升服务质量。";

/** A refusal an upstream gave, its own submit code (a number) kept as the error's code for the client. */
class UpstreamTaskRefusal extends RelayError {
  constructor(status: number, message: string, upstreamCode: number) {
    super(status, message, String(upstreamCode), "upstream_error");
  }
}

function pinnedChannel(s: TaskSubmit, id: number): RouteChannel {
  const channel = s.ctx.relay.routes.channel(id);
  if (!channel) throw new RelayError(503, `channel ${id} is not available`, "channel_disabled", "tollgate_error");
  return channel;
}

/** The next channel of the platform for the model, through the caller's route groups. */
function nextChannel(
  s: TaskSubmit,
  groups: string[],
  excluded: Set<number>,
): { channel: RouteChannel; family: TaskFamily } | undefined {
  for (;;) {
    let channel: RouteChannel | undefined;
    const pinned = s.channelId ?? s.caller.pinnedChannelId;
    if (pinned !== undefined) channel = excluded.has(pinned) ? undefined : pinnedChannel(s, pinned);
    else for (const group of groups) if ((channel = s.ctx.relay.routes.pick(group, s.model, excluded))) break;
    if (!channel) return undefined;
    const family = providerFor(channel.row.type).tasks;
    if (family?.platform === s.platform) return { channel, family };
    if (pinned !== undefined) {
      throw new RelayError(
        400,
        `channel ${pinned} does not serve ${s.platform} tasks`,
        "unsupported_endpoint",
        "invalid_request_error",
      );
    }
    excluded.add(channel.row.id);
  }
}

/**
 * Submits a task over the platform's channels: the task's whole price is held first; the first channel that
 * takes it is billed (settled), a channel whose queue is full or that cannot be reached gives way to the next
 * (up to RetryTimes more), and when none takes it the hold is given back and the client told why.
 */
export async function submitTask(s: TaskSubmit): Promise<TakenSubmission> {
  const { ctx, caller } = s;
  checkModelAllowed(caller.token, s.model);
  const groups = routeGroups(ctx, caller.user, caller.group);
  const charge = await TaskCharge.open(
    {
      ctx,
      caller,
      model: s.model,
      platform: s.platform,
      requestId: s.requestId,
      ip: s.ip,
      userAgent: s.userAgent,
      startedAt: s.startedAt,
    },
    groups[0] ?? caller.group,
  );
  const excluded = new Set<number>();
  const tried: number[] = [];
  let last: RelayError | undefined;
  try {
    for (let attempt = 0; attempt <= ctx.options.num("RetryTimes"); attempt++) {
      const next = nextChannel(s, groups, excluded);
      if (!next) break;
      const { channel, family } = next;
      excluded.add(channel.row.id);
      tried.push(channel.row.id);
      const reply = await callTaskUpstream(
        ctx.options,
        family.submit(channel.row, s.path, s.body),
        ctx.config.relayTimeoutMs,
      );
      if (!reply.ok) {
        last = new RelayError(502, reply.message, "upstream_unreachable", "upstream_error");
        continue;
      }
      const submission = family.submitted(reply.status, reply.json);
      if (submission.taken) {
        charge.settle(channel.row.id, s.model, submission.id, tried);
        return { channel, submission, quota: charge.quota };
      }
      const said = maskUpstreamText(submission.description, [channel.row.key, channel.row.base_url]);
      if (submission.busy) {
        last = new UpstreamTaskRefusal(429, SATURATED, 30);
        continue;
      }
      if (reply.status >= 500) {
        last = new UpstreamTaskRefusal(502, said, submission.code);
        continue;
      }
      // An upstream refusing the channel's own credentials is not the client's key failing.
      const status = reply.status === 401 || reply.status === 403 ? 502 : Math.max(reply.status, 400);
      throw new UpstreamTaskRefusal(status, said, submission.code);
    }
    throw (
      last ??
      new RelayError(
        503,
        `no available channel for model ${s.model} in group ${caller.group}`,
        "model_not_found",
        "tollgate_error",
      )
    );
  } catch (error) {
    charge.release();
    throw error;
  }
}
