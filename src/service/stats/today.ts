import type { Exec } from "../../db/exec";
import { totalsPer, type ColumnTotals, type RankedColumn } from "../../db/queries/overview";
import { LogType } from "../../shared/constants";

/**
 * How old a row's created_at must be before it is taken as written for good: rows reach the database a
 * few milliseconds after they are stamped (the write-behind batches), and other instances' clocks may run
 * a little apart.
 */
export const SETTLE_SECONDS = 10;

/** Unix seconds of the local midnight that starts the day of `now`. */
export function startOfDay(now: number): number {
  const day = new Date(now * 1000);
  day.setHours(0, 0, 0, 0);
  return Math.floor(day.getTime() / 1000);
}

type Tally = Map<string, ColumnTotals>;

function addInto(tally: Tally, rows: ColumnTotals[]): Tally {
  for (const row of rows) {
    const known = tally.get(row.name);
    tally.set(
      row.name,
      known
        ? {
            name: row.name,
            requests: known.requests + row.requests,
            tokens: known.tokens + row.tokens,
            quota: known.quota + row.quota,
          }
        : row,
    );
  }
  return tally;
}

/**
 * Today's consumption per model and per user, kept up to date without reading the whole day again: the
 * settled part of the day (older than SETTLE_SECONDS) is summed once and then only extended by what has
 * settled since; the last few seconds are summed afresh on each read. Starts over at local midnight.
 */
export class TodayTally {
  private day = -1;
  private settledUpTo = 0;
  private readonly settled: Record<RankedColumn, Tally> = { model_name: new Map(), username: new Map() };
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: Exec) {}

  /** Every model's and every user's consumption today, unsorted; reads run one at a time. */
  read(now: number): Promise<Record<RankedColumn, ColumnTotals[]>> {
    const run = this.queue.then(() => this.readNow(now));
    this.queue = run.catch(() => {});
    return run;
  }

  private async readNow(now: number): Promise<Record<RankedColumn, ColumnTotals[]>> {
    const day = startOfDay(now);
    if (day !== this.day) {
      this.day = day;
      this.settledUpTo = day;
      this.settled.model_name.clear();
      this.settled.username.clear();
    }
    const from = this.settledUpTo;
    const boundary = Math.max(from, now - SETTLE_SECONDS);
    const sums = (column: RankedColumn, start: number, end: number) =>
      end > start ? totalsPer(this.db, column, LogType.Consume, start, end) : Promise.resolve([]);
    const [newModels, newUsers, recentModels, recentUsers] = await Promise.all([
      sums("model_name", from, boundary),
      sums("username", from, boundary),
      sums("model_name", boundary, now + 1),
      sums("username", boundary, now + 1),
    ]);
    addInto(this.settled.model_name, newModels);
    addInto(this.settled.username, newUsers);
    this.settledUpTo = boundary;
    return {
      model_name: [...addInto(new Map(this.settled.model_name), recentModels).values()],
      username: [...addInto(new Map(this.settled.username), recentUsers).values()],
    };
  }
}
