import { inTransaction, type Exec } from "../../db/exec";
import { addToBuckets, type QuotaBucket } from "../../db/queries/quota-data";
import { ArmedTimer } from "../../shared/armed-timer";
import { SerialQueue } from "../billing/serial";
import { nowSeconds } from "../time";

const HOUR = 3600;

/** One settled call, as the dashboard counts it. */
export interface Consumption {
  userId: number;
  username: string;
  model: string;
  quota: number;
  /** Prompt plus completion tokens. */
  tokens: number;
  /** Calls it counts (1 when absent; 0 for a refund, which gives back quota but made no call). */
  calls?: number;
}

/** The start of the hour `at` (unix seconds) falls in. */
export const hourOf = (at: number): number => Math.floor(at / HOUR) * HOUR;

/**
 * Consumption rolled up in memory per (user, model, hour) and added to the quota_data rows in one
 * transaction: `flushAfterMs` after the first call since the last flush, on `flush()`, and on `close()`.
 * Adding (not replacing) lets several instances share the table.
 */
export class QuotaRollup {
  private buckets = new Map<string, QuotaBucket>();
  /** Armed by the first call since the last flush; a failed flush is tried again after the same wait. */
  private readonly timer = new ArmedTimer(() => void this.flush().catch(() => this.timer.arm(this.waitMs)));
  private waitMs = 0;
  private readonly serial = new SerialQueue();
  /** The clock that picks the hour; tests move it. */
  now: () => number = nowSeconds;

  constructor(private readonly db: Exec) {}

  add(c: Consumption, flushAfterMs: number): void {
    const created_at = hourOf(this.now());
    const key = `${c.userId}\u0000${c.model}\u0000${created_at}`;
    const bucket = this.buckets.get(key);
    const calls = c.calls ?? 1;
    if (bucket) addInto(bucket, c.username, calls, c.quota, c.tokens);
    else
      this.buckets.set(key, {
        user_id: c.userId,
        username: c.username,
        model_name: c.model,
        created_at,
        count: calls,
        quota: c.quota,
        token_used: c.tokens,
      });
    this.waitMs = flushAfterMs;
    this.timer.arm(flushAfterMs);
  }

  /** Writes every bucket now; on failure they are kept (merged with newer ones) for the next attempt. */
  flush(): Promise<void> {
    return this.serial.run(async () => {
      if (this.buckets.size === 0) return;
      const batch = this.buckets;
      this.buckets = new Map();
      try {
        // In key order, so instances writing the same rows at once take their locks in the same order.
        const ordered = [...batch.values()].sort(
          (a, b) => a.user_id - b.user_id || a.created_at - b.created_at || (a.model_name < b.model_name ? -1 : 1),
        );
        await inTransaction(this.db, (tx) => addToBuckets(tx, ordered));
      } catch (error) {
        for (const [key, newer] of this.buckets) merge(batch, key, newer);
        this.buckets = batch;
        console.error("[stats] rollup flush failed, will retry:", error instanceof Error ? error.message : error);
        throw error;
      }
    });
  }

  /** Stops the timer and writes everything still held. */
  async close(): Promise<void> {
    this.timer.stop();
    for (let attempt = 0; attempt < 5 && this.buckets.size > 0; attempt++) {
      await this.flush().catch(() => Bun.sleep(100));
    }
  }
}

/** Adds `b` to the bucket of `key` (the latest username wins), or makes it that bucket. */
function merge(into: Map<string, QuotaBucket>, key: string, b: QuotaBucket): void {
  const a = into.get(key);
  if (!a) return void into.set(key, b);
  addInto(a, b.username, b.count, b.quota, b.token_used);
}

/** Counts calls into a bucket (the latest username wins). */
function addInto(bucket: QuotaBucket, username: string, count: number, quota: number, tokens: number): void {
  bucket.username = username;
  bucket.count += count;
  bucket.quota += quota;
  bucket.token_used += tokens;
}
