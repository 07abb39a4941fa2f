/** Statuses of drawing and async tasks (spec: Drawing task status; async tasks add QUEUED, UNKNOWN and ""). */
export const TaskStatus = {
  NotStart: "NOT_START",
  Submitted: "SUBMITTED",
  Queued: "QUEUED",
  InProgress: "IN_PROGRESS",
  Modal: "MODAL",
  Success: "SUCCESS",
  Failure: "FAILURE",
  Unknown: "UNKNOWN",
} as const;

/** A task in one of these is finished: its money is final and the poller leaves it. */
export const FINAL_TASK_STATUSES: readonly string[] = [TaskStatus.Success, TaskStatus.Failure];
