import { query } from "../../api";
import type { Bucket } from "../detail/buckets";

/** The local start of today, in unix seconds. */
export function todayStart(now = new Date()): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return Math.floor(day.getTime() / 1000);
}

const HOURS = 24;

/** The last 24 hours' spend, hour by hour (oldest first), from the hourly rollups of /api/data/self. */
export function hourlySpend(buckets: Bucket[], nowSeconds: number): number[] {
  const currentHour = Math.floor(nowSeconds / 3600);
  const hours = Array<number>(HOURS).fill(0);
  for (const bucket of buckets) {
    const slot = HOURS - 1 - (currentHour - Math.floor(bucket.created_at / 3600));
    if (slot >= 0 && slot < HOURS) hours[slot]! += bucket.quota;
  }
  return hours;
}

/** The calls the home reads: today's own consumption, its count, and the last day's rollups. */
export function homeCalls(nowSeconds: number) {
  const today = { type: 2, start_timestamp: todayStart(new Date(nowSeconds * 1000)) };
  return {
    stat: `/api/log/self/stat${query(today)}`,
    calls: `/api/log/self${query({ ...today, p: 1, page_size: 1 })}`,
    hourly: `/api/data/self${query({ start_timestamp: nowSeconds - HOURS * 3600, end_timestamp: nowSeconds })}`,
  };
}
