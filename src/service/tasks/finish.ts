import { inTransaction } from "../../db/exec";
import { patchUnfinishedTask, writeRefund, type TaskRow } from "../../db/queries/task-rows";
import type { RecordTable } from "../../db/queries/tasks";
import { LogType } from "../../shared/constants";
import { FINAL_TASK_STATUSES, TaskStatus } from "../../shared/task-status";
import type { ServiceContext } from "../context";
import { recordConsumption } from "../stats/record";
import { nowSeconds } from "../time";
import { MJ_MODELS } from "./mj-actions";
import { SUNO_MODELS } from "./suno-actions";

/** What a poll (or the submission) learnt of a task, in the task table's columns. */
export type TaskPatch = Record<string, string | number>;

/**
 * Writes what a poll learnt of an unfinished task. A task that reaches FAILURE is refunded in the same
 * transaction as the status change, and only when that change is the one that finished it: of two pollers (or
 * a poll and the timeout) finishing one task, exactly one refunds. Answers whether this call changed the task.
 */
export async function updateTask<T extends RecordTable>(
  ctx: ServiceContext,
  table: T,
  row: TaskRow<T>,
  patch: TaskPatch,
): Promise<boolean> {
  if (patch.status !== TaskStatus.Failure) {
    return patchUnfinishedTask(ctx.db, table, row.id, FINAL_TASK_STATUSES, patch);
  }
  const username = (await ctx.users.get(row.user_id))?.username ?? "";
  const model = (table === "midjourneys" ? MJ_MODELS[row.action] : SUNO_MODELS[row.action]) ?? "";
  const refunded = await inTransaction(ctx.db, async (tx) => {
    if (!(await patchUnfinishedTask(tx, table, row.id, FINAL_TASK_STATUSES, patch))) return false;
    const refund = refundOf(table, row, String(patch.fail_reason ?? ""), username, model);
    if (row.quota > 0) await writeRefund(tx, refund);
    return true;
  });
  if (refunded && row.quota > 0) {
    ctx.users.forget(row.user_id);
    if (row.token_id) ctx.changes.emit("tokens", row.token_id);
    // The dashboard's spending gives the refund back, under the task's model, without counting a call.
    if (username && model)
      recordConsumption(ctx, { userId: row.user_id, username, model, quota: -row.quota, tokens: 0, calls: 0 });
  }
  return refunded;
}

function refundOf<T extends RecordTable>(table: T, row: TaskRow<T>, reason: string, username: string, model: string) {
  const taskId = "mj_id" in row ? row.mj_id : (row as TaskRow<"tasks">).task_id;
  return {
    userId: row.user_id,
    tokenId: row.token_id,
    channelId: row.channel_id,
    quota: row.quota,
    log: {
      user_id: row.user_id,
      username,
      model_name: model,
      created_at: nowSeconds(),
      type: LogType.Refund,
      content: `task ${taskId} failed, ${row.quota} quota refunded: ${reason}`.slice(0, 2000),
      quota: row.quota,
      channel_id: row.channel_id,
      token_id: row.token_id,
      other: JSON.stringify({ task_id: taskId, table, action: row.action }),
    },
  };
}
