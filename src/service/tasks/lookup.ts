import { ownTasksByUpstreamId, taskByUpstreamId, type TaskRow } from "../../db/queries/task-rows";
import type { RecordTable } from "../../db/queries/tasks";
import type { ServiceContext } from "../context";

/** The caller's tasks of these upstream ids; another user's tasks are not among them (not found, not refused). */
export const ownTasks = <T extends RecordTable>(ctx: ServiceContext, table: T, userId: number, ids: string[]) =>
  ownTasksByUpstreamId(ctx.db, table, userId, [...new Set(ids)]);

export const ownDrawingTasks = (
  ctx: ServiceContext,
  userId: number,
  ids: string[],
): Promise<TaskRow<"midjourneys">[]> => ownTasks(ctx, "midjourneys", userId, ids);

/**
 * The upstream image of drawing task `id`, for the image proxy (compat: unauthenticated, like the image
 * addresses it stands for); "" when the task has none yet.
 */
export async function drawingImageUrl(ctx: ServiceContext, id: string): Promise<string> {
  return (await taskByUpstreamId(ctx.db, "midjourneys", id))?.image_url ?? "";
}
