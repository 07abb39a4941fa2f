import { findChannel } from "../../db/queries/channels";
import { claimLease, releaseLease } from "../../db/queries/leader-lease";
import { unfinishedTasks, UPSTREAM_ID, type TaskRow } from "../../db/queries/task-rows";
import type { RecordTable } from "../../db/queries/tasks";
import type { ChannelRow } from "../../db/schema";
import { FINAL_TASK_STATUSES, TaskStatus } from "../../shared/task-status";
import type { ServiceContext } from "../context";
import { randomAlphanumeric } from "../crypto";
import { nowSeconds } from "../time";
import { updateTask, type TaskPatch } from "./finish";
import { notifyClient } from "./notify";

/**
 * The port through which the poller asks a channel's upstream about its tasks (the gateway implements it with the
 * channel's task family): what it reports of each task id, undefined when the upstream could not be asked.
 */
export type TaskFetcher = (
  channel: ChannelRow,
  ids: string[],
  action: string,
) => Promise<Map<string, TaskPatch> | undefined>;

const LEASE_KEY = "task_poller_lease";
/** Unfinished tasks read per query, and ids asked of one upstream at once. */
const PAGE = 500;
const BATCH = 100;
const TABLES: RecordTable[] = ["midjourneys", "tasks"];

const upstreamIdOf = (table: RecordTable, row: TaskRow<RecordTable>) =>
  String((row as Record<string, unknown>)[UPSTREAM_ID[table]]);

/**
 * Follows the unfinished drawing and music tasks: every `taskPollMs` the instance holding the poller's lease (a
 * row in the database that expires, so another instance takes over from one that died) reads the unfinished tasks,
 * asks each channel about its own in batches, writes status, progress, image, failure reason and times, refunds a
 * failed task, and gives up (failure, refund) on a task still unfinished `taskTimeoutSeconds` after submission.
 * Everything it knows is in the task rows, so a restart continues where the last round stopped; a task finishes
 * (and is refunded) through a conditional update, so two instances polling at once still refund it only once.
 */
export class TaskPoller {
  readonly holder = randomAlphanumeric(16);
  private timer: Timer | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly fetcher: TaskFetcher,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.ctx.config.taskPollMs);
    this.timer.unref();
  }

  private tick(): void {
    this.running ??= this.round()
      .then(() => undefined)
      .catch((error) => console.error("[tasks] poll failed:", error instanceof Error ? error.message : error))
      .finally(() => {
        this.running = undefined;
      });
  }

  /** One round, when this instance holds (or takes) the lease; answers whether it polled. */
  async round(): Promise<boolean> {
    if (!(await this.lease())) return false;
    for (const table of TABLES) await this.pollTable(table);
    return true;
  }

  /** Takes or renews the lease for three poll intervals; answers whether this instance holds it. */
  private lease(): Promise<boolean> {
    const now = Date.now();
    return claimLease(this.ctx.db, LEASE_KEY, this.holder, now, now + 3 * this.ctx.config.taskPollMs);
  }

  private async pollTable(table: RecordTable): Promise<void> {
    let afterId = 0;
    for (;;) {
      const rows = await unfinishedTasks(this.ctx.db, table, FINAL_TASK_STATUSES, afterId, PAGE);
      if (rows.length === 0) return;
      afterId = rows.at(-1)!.id;
      const live = await this.giveUpOverdue(table, rows);
      const groups = Map.groupBy(live, (row) => `${row.channel_id} ${row.action}`);
      for (const group of groups.values()) {
        for (let i = 0; i < group.length; i += BATCH) {
          // A long round renews its lease batch by batch, and ends when another instance has taken it over.
          if (!(await this.lease())) return;
          await this.pollBatch(table, group.slice(i, i + BATCH));
        }
      }
      if (rows.length < PAGE) return;
    }
  }

  /** Fails and refunds the tasks past the timeout; answers the others. */
  private async giveUpOverdue<T extends RecordTable>(table: T, rows: TaskRow<T>[]): Promise<TaskRow<T>[]> {
    const deadline = nowSeconds() - this.ctx.config.taskTimeoutSeconds;
    const live: TaskRow<T>[] = [];
    for (const row of rows) {
      if (row.submit_time > deadline) {
        live.push(row);
        continue;
      }
      const patch = {
        status: TaskStatus.Failure,
        progress: "100%",
        fail_reason: "task timed out",
        finish_time: nowSeconds(),
      };
      if (await updateTask(this.ctx, table, row, patch)) await this.notify(table, row, patch);
    }
    return live;
  }

  /** Asks one channel about tasks of one action and writes what changed. */
  private async pollBatch<T extends RecordTable>(table: T, rows: TaskRow<T>[]): Promise<void> {
    const first = rows[0]!;
    const channel = await findChannel(this.ctx.db, first.channel_id);
    if (!channel) return;
    const reports = await this.fetcher(
      channel,
      rows.map((row) => upstreamIdOf(table, row)),
      first.action,
    );
    if (!reports) return;
    for (const row of rows) {
      const report = reports.get(upstreamIdOf(table, row));
      if (!report || !changed(row, report)) continue;
      const patch = finished(report);
      if (table === "tasks") patch.updated_at = nowSeconds();
      if (await updateTask(this.ctx, table, row, patch)) await this.notify(table, row, patch);
    }
  }

  private notify<T extends RecordTable>(table: T, row: TaskRow<T>, patch: TaskPatch): Promise<void> {
    return table === "midjourneys"
      ? notifyClient(this.ctx, { ...row, ...patch } as TaskRow<"midjourneys">)
      : Promise.resolve();
  }

  /** Stops polling and gives the lease up, so another instance takes over at its next round. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await releaseLease(this.ctx.db, LEASE_KEY, this.holder).catch(() => {});
  }
}

/** Whether a report says anything the row does not hold yet. */
const changed = (row: TaskRow<RecordTable>, report: TaskPatch) =>
  Object.entries(report).some(([column, value]) => (row as Record<string, unknown>)[column] !== value);

/** A report as written: an unknown status is kept as UNKNOWN; a finished task gets its finish time and 100 %. */
function finished(report: TaskPatch): TaskPatch {
  const patch = { ...report };
  if (!patch.status) delete patch.status;
  if (patch.status && !(Object.values(TaskStatus) as string[]).includes(String(patch.status)))
    patch.status = TaskStatus.Unknown;
  if (FINAL_TASK_STATUSES.includes(String(patch.status))) {
    if (!patch.finish_time) patch.finish_time = nowSeconds();
    if (patch.status === TaskStatus.Success) patch.progress = "100%";
    if (patch.status === TaskStatus.Failure && !patch.fail_reason)
      patch.fail_reason = "the upstream reported a failure";
  }
  return patch;
}
