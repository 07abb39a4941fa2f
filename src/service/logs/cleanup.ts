import { inTransaction } from "../../db/exec";
import { deleteLogsByIds, oldestLogIdsBefore } from "../../db/queries/logs";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { timestampOf } from "../records/time-range";
import { nowSeconds } from "../time";
import { isRoot } from "../users/admin-access";
import { bumpLogGeneration } from "./totals";

export const CLEANUP_BATCH = 5000;
export const TARGET_REQUIRED = "target_timestamp is required: a unix time in seconds; older log rows are deleted";
const DAY_SECONDS = 86_400;

export interface CleanupOptions {
  batch?: number;
  /** Told the size of each batch deleted (tests, progress). */
  onBatch?: (deleted: number) => void;
}

/**
 * Deletes every log row created before `before`, oldest first, `batch` rows per statement and transaction,
 * so writers wait at most one batch; answers how many rows went.
 */
export async function removeLogsBefore(
  ctx: ServiceContext,
  before: number,
  options: CleanupOptions = {},
): Promise<number> {
  const batch = options.batch ?? CLEANUP_BATCH;
  let total = 0;
  for (;;) {
    const ids = await oldestLogIdsBefore(ctx.db, before, batch);
    if (ids.length === 0) return total;
    const deleted = await inTransaction(ctx.db, async (tx) => {
      const n = await deleteLogsByIds(tx, ids, before);
      await bumpLogGeneration(tx);
      return n;
    });
    total += deleted;
    options.onBatch?.(deleted);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** DELETE /api/log/?target_timestamp= (root): rows created before the target go; answers the count. */
export function deleteLogsBefore(ctx: ServiceContext, actor: UserRow, target: unknown): Promise<number> {
  if (!isRoot(actor)) refuse("Unauthorized, insufficient privileges");
  const before = timestampOf(target, "target_timestamp") || refuse(TARGET_REQUIRED, 400);
  return removeLogsBefore(ctx, before);
}

/** The retention job: with LogRetentionDays > 0, rows older than that many days before `now` go (0 keeps all). */
export async function runLogRetention(ctx: ServiceContext, now = nowSeconds()): Promise<number> {
  const days = ctx.options.num("LogRetentionDays");
  if (!(days > 0)) return 0;
  return removeLogsBefore(ctx, now - days * DAY_SECONDS);
}

/** Runs the retention job a few minutes after start and then daily; the timers never keep the process alive. */
export function scheduleLogRetention(
  ctx: ServiceContext,
  periodMs = DAY_SECONDS * 1000,
  firstMs = 5 * 60_000,
): () => void {
  const run = () => {
    runLogRetention(ctx).catch((error) =>
      console.error("[logs] retention failed:", error instanceof Error ? error.message : error),
    );
  };
  const first = setTimeout(run, firstMs);
  const daily = setInterval(run, periodMs);
  first.unref();
  daily.unref();
  return () => {
    clearTimeout(first);
    clearInterval(daily);
  };
}
