import type { ServiceContext } from "../../../service/context";
import type { TaskFetcher } from "../../../service/tasks/poller";
import { providerFor } from "../providers/registry";
import { callTaskUpstream } from "./upstream-call";

/** A poll gives an upstream this long: one that hangs must not hold the round (or a stop) for RELAY_TIMEOUT. */
const FETCH_TIMEOUT_MS = 30_000;

/** The poller's port: asks the channel's task family about its tasks and answers each report's columns by id. */
export function taskFetcher(ctx: ServiceContext): TaskFetcher {
  return async (channel, ids, action) => {
    const family = providerFor(channel.type).tasks;
    if (!family) return undefined;
    const timeoutMs = Math.min(ctx.config.relayTimeoutMs || FETCH_TIMEOUT_MS, FETCH_TIMEOUT_MS);
    const reply = await callTaskUpstream(ctx.options, family.fetch(channel, ids, action), timeoutMs);
    if (!reply.ok || reply.status < 200 || reply.status >= 300) return undefined;
    return new Map(family.reports(reply.json).map((report) => [report.id, report.columns]));
  };
}
