import type { TaskRow } from "../../db/queries/task-rows";
import type { ServiceContext } from "../context";
import { gatedFetch } from "../egress/gated-fetch";
import { upstreamGate } from "../egress/site-gate";
import { propertiesOf } from "./record";
import { mjTaskView } from "./views";

const NOTIFY_TIMEOUT_MS = 5000;

/**
 * Tells the client's notifyHook of a drawing task's change (MjNotifyEnabled), with the task as /mj/task/{id}/fetch
 * shows it. The hook is called under the upstream address policy (a hook inside the network is refused as an
 * upstream would be); a hook that fails is not retried: the client can still fetch the task.
 */
export async function notifyClient(ctx: ServiceContext, row: TaskRow<"midjourneys">): Promise<void> {
  const hook = propertiesOf(row).notifyHook;
  if (typeof hook !== "string" || !hook || !ctx.options.bool("MjNotifyEnabled")) return;
  try {
    const reply = await gatedFetch(
      hook,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(mjTaskView(ctx, row)),
        redirect: "manual",
        signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
      },
      upstreamGate(ctx.options),
    );
    await reply.body?.cancel();
  } catch {
    // The task is stored either way; a client whose hook is unreachable polls instead.
  }
}
