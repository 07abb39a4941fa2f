import type { Db } from "../../db/connect";
import { countLogs, countLogsUpTo, maxLogId, type LogFilter } from "../../db/queries/logs";
import { readOne, upsert } from "../../db/queries/key-value";
import type { Exec } from "../../db/exec";
import { randomAlphanumeric } from "../crypto";

const GENERATION_KEY = "logs_generation";
/** How long an id must have been the highest before rows up to it are taken as complete (see below). */
export const SETTLE_MS = 30_000;
const MAX_CHECKPOINTS = 1000;

interface Checkpoint {
  /** Exactly `count` rows of the scope have ids ≤ upTo. */
  upTo: number;
  count: number;
  generation: string;
}

/** Marks every checkpoint stale; called in the transaction of each delete, so another process sees it too. */
export const bumpLogGeneration = (tx: Exec): Promise<void> =>
  upsert(tx, "internals", GENERATION_KEY, randomAlphanumeric(16));

const generationOf = async (db: Db): Promise<string> => (await readOne(db, "internals", GENERATION_KEY)) ?? "";

/**
 * The two scopes whose count would otherwise read a whole table or a whole user's history: every row
 * (the admin list unfiltered) and one user's rows (a user's list unfiltered). Other filters are counted
 * from the index their filter leads.
 */
function scopeOf(f: LogFilter): string | undefined {
  const narrowed = Object.entries(f)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
  if (narrowed.length === 0) return "all";
  if (narrowed.length === 1 && narrowed[0] === "userId") return `user:${f.userId}`;
  return undefined;
}

/**
 * Exact totals of the large scopes without counting them each time: a checkpoint holds the count of the
 * scope's rows up to some id, and each call counts only the rows above it (an index range). Rows are only
 * ever added above the highest id, and only removed by the log cleanup, which changes the generation
 * stored in the database; a checkpoint of another generation is recounted.
 *
 * On SQLite ids are committed in order, so the highest id is a safe checkpoint at once. PostgreSQL and
 * MySQL hand out ids before commit, so a smaller id may still appear for as long as a transaction is
 * open: there the highest id becomes a checkpoint only after it has been seen for SETTLE_MS (the write
 * batches hold their transaction for milliseconds).
 */
export class LogTotals {
  private readonly checkpoints = new Map<string, Checkpoint>();
  private seen: { id: number; at: number } | undefined;
  private settled: number | undefined;

  constructor(
    private readonly db: Db,
    private readonly settleMs = db.dialect === "sqlite" ? 0 : SETTLE_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  async count(f: LogFilter): Promise<number> {
    const scope = scopeOf(f);
    if (scope === undefined) return countLogs(this.db, f);
    const generation = await generationOf(this.db);
    const upTo = await this.safeCheckpointId();
    if (upTo === undefined) return countLogs(this.db, f);
    const checkpoint = await this.advance(this.checkpoints.get(scope), f, upTo, generation);
    const above = await countLogs(this.db, f, { above: checkpoint.upTo });
    if ((await generationOf(this.db)) === generation) this.remember(scope, checkpoint);
    return checkpoint.count + above;
  }

  private async advance(
    known: Checkpoint | undefined,
    f: LogFilter,
    upTo: number,
    generation: string,
  ): Promise<Checkpoint> {
    if (!known || known.generation !== generation || known.upTo > upTo) {
      return { upTo, count: await countLogsUpTo(this.db, f, upTo), generation };
    }
    if (known.upTo === upTo) return known;
    return { upTo, count: known.count + (await countLogs(this.db, f, { above: known.upTo, upTo })), generation };
  }

  /** The highest id known to have no smaller id still to come; undefined until there is one. */
  private async safeCheckpointId(): Promise<number | undefined> {
    const now = this.clock();
    if (!this.seen || now - this.seen.at >= this.settleMs) {
      if (this.seen && now - this.seen.at >= this.settleMs) this.settled = this.seen.id;
      this.seen = { id: await maxLogId(this.db), at: now };
      if (this.settleMs === 0) this.settled = this.seen.id;
    }
    return this.settled;
  }

  private remember(scope: string, checkpoint: Checkpoint): void {
    this.checkpoints.delete(scope);
    this.checkpoints.set(scope, checkpoint);
    if (this.checkpoints.size > MAX_CHECKPOINTS) this.checkpoints.delete(this.checkpoints.keys().next().value!);
  }
}

const byDb = new WeakMap<Db, LogTotals>();

/** The process's totals keeper for a database. */
export function logTotalsOf(db: Db): LogTotals {
  let totals = byDb.get(db);
  if (!totals) byDb.set(db, (totals = new LogTotals(db)));
  return totals;
}
