import { insertTaskRow, type TaskRow } from "../../db/queries/task-rows";
import type { RecordTable } from "../../db/queries/tasks";
import { TaskStatus } from "../../shared/task-status";
import type { RelayCaller } from "../relay/caller";
import type { ServiceContext } from "../context";
import { nowSeconds } from "../time";

/** A task the upstream took, as its row starts. */
export interface TakenTask {
  caller: RelayCaller;
  action: string;
  /** The upstream's task id. */
  upstreamId: string;
  channelId: number;
  /** What was billed for it (refunded if it fails). */
  quota: number;
  /** The table's own columns (prompt, code, platform, ...). */
  columns: Record<string, string | number>;
}

/** Stores a task the upstream took, unfinished (the poller follows it); answers the row's id. */
export function recordTask(ctx: ServiceContext, table: RecordTable, t: TakenTask): Promise<number> {
  const now = nowSeconds();
  const idColumn = table === "midjourneys" ? "mj_id" : "task_id";
  return insertTaskRow(ctx.db, table, {
    user_id: t.caller.user.id,
    token_id: t.caller.token?.id ?? 0,
    action: t.action,
    [idColumn]: t.upstreamId,
    channel_id: t.channelId,
    quota: t.quota,
    status: TaskStatus.Submitted,
    progress: "0%",
    submit_time: now,
    ...(table === "tasks" && { created_at: now, updated_at: now, group: t.caller.group }),
    ...t.columns,
  });
}

/** The properties a drawing task keeps of its submission (the client's notify hook among them). */
export const propertiesOf = (row: Pick<TaskRow<RecordTable>, "properties">): Record<string, unknown> => {
  try {
    const parsed = JSON.parse(row.properties || "{}");
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
};
