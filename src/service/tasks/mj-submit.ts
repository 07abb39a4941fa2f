import { ownTasksByUpstreamId, type TaskRow } from "../../db/queries/task-rows";
import { TaskStatus } from "../../shared/task-status";
import type { ServiceContext } from "../context";
import type { RelayCaller } from "../relay/caller";
import { invalidRequest, RelayError } from "../relay/errors";
import type { MjAction } from "./mj-actions";

/** A drawing submission after the site's drawing options had their say, ready for a channel. */
export interface MjSubmission {
  action: MjAction;
  /** The body the upstream gets. */
  body: Record<string, unknown>;
  /** The caller's own task this one acts on: its channel must take this one. */
  origin?: TaskRow<"midjourneys">;
  /** Where the client wants to hear of the task's changes ("" for nowhere; MjNotifyEnabled). */
  notifyHook: string;
}

const MODE_FLAGS = /\s*--(?:fast|relax|turbo)\b/g;

export const notFound = (id: string) =>
  new RelayError(404, `task ${id.slice(0, 80)} not found`, "task_not_found", "invalid_request_error");

/** An http(s) address, or "" for anything else. */
function hookOf(value: unknown): string {
  if (typeof value !== "string" || value.length > 2048) return "";
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : "";
  } catch {
    return "";
  }
}

/**
 * Applies the drawing options to a checked submission: MjModeClearEnabled strips --fast/--relax/--turbo from the
 * prompt, MjAccountFilterEnabled passes the client's accountFilter on (else it is dropped), MjNotifyEnabled keeps
 * the client's notifyHook for us to call (the upstream never gets it: it would call the client with its own
 * addresses). An action on an earlier task needs that task to be the caller's (another user's is not found) and,
 * under MjActionCheckSuccessEnabled, to have succeeded (a dialog answers a task waiting in its dialog).
 */
export async function prepareMjSubmission(
  ctx: ServiceContext,
  caller: RelayCaller,
  action: MjAction,
  body: Record<string, unknown>,
): Promise<MjSubmission> {
  const o = ctx.options;
  const { notifyHook, accountFilter, ...rest } = body;
  const sent: Record<string, unknown> = rest;
  if (o.bool("MjAccountFilterEnabled") && accountFilter !== undefined) sent.accountFilter = accountFilter;
  if (o.bool("MjModeClearEnabled") && typeof sent.prompt === "string") {
    sent.prompt = sent.prompt.replace(MODE_FLAGS, "").trim();
    if (!sent.prompt && action.action === "IMAGINE") throw invalidRequest("prompt is required");
  }
  const submission: MjSubmission = {
    action,
    body: sent,
    notifyHook: o.bool("MjNotifyEnabled") ? hookOf(notifyHook) : "",
  };
  if (action.originId === undefined) return submission;
  const [origin] = await ownTasksByUpstreamId(ctx.db, "midjourneys", caller.user.id, [action.originId]);
  if (!origin) throw notFound(action.originId);
  const ready =
    origin.status === TaskStatus.Success || (action.action === "MODAL" && origin.status === TaskStatus.Modal);
  if (o.bool("MjActionCheckSuccessEnabled") && !ready) {
    throw invalidRequest(
      `task ${action.originId} has not succeeded (status ${origin.status || "unknown"})`,
      "task_not_succeeded",
    );
  }
  return { ...submission, origin };
}
