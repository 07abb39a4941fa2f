/**
 * Sliding windows of amounts (a request counts 1, a call's tokens count their number): the shared state of the
 * relay's request and token-rate limits. One `take` checks every window it names and, only when all have room,
 * records its amounts in all of them — atomically, so concurrent calls (on any instance, with Redis) cannot
 * overshoot a cap by more than what is in flight.
 */
export interface WindowCheck {
  key: string;
  /** The most the window may hold; 0 means no cap (the amount is only recorded). */
  cap: number;
  /** What this call adds (0: only checked — refused when the window already holds `cap`). */
  amount: number;
  windowMs: number;
}

export type WindowVerdict =
  | { ok: true; entry: string }
  /** `index`: the check that had no room; `waitMs`: until its oldest entry leaves the window. */
  | { ok: false; index: number; waitMs: number };

export interface TrafficWindows {
  take(checks: WindowCheck[]): Promise<WindowVerdict>;
  /** Replaces the amount an earlier take recorded as `entry` in `key` (a reservation settled to the real use). */
  settle(key: string, entry: string, reserved: number, actual: number): Promise<void>;
  close(): void;
}

/** Whether a window holding `sum` has room for `amount` under `cap` (a check of 0 needs room for one). */
export const hasRoom = (sum: number, amount: number, cap: number) => cap <= 0 || sum + Math.max(amount, 1) <= cap;

export const newEntryId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

interface Entry {
  at: number;
  id: string;
  amount: number;
}

/** One process's windows (no Redis configured). */
export class MemoryTrafficWindows implements TrafficWindows {
  private readonly windows = new Map<string, Entry[]>();
  /** Each window's length, for the sweep. */
  private readonly lengths = new Map<string, number>();
  private readonly sweeper: Timer;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private live(key: string, windowMs: number, now: number): Entry[] {
    const list = this.windows.get(key);
    if (!list) return [];
    let drop = 0;
    while (drop < list.length && list[drop]!.at <= now - windowMs) drop++;
    if (drop > 0) list.splice(0, drop);
    return list;
  }

  async take(checks: WindowCheck[]): Promise<WindowVerdict> {
    const now = Date.now();
    for (const [index, check] of checks.entries()) {
      const list = this.live(check.key, check.windowMs, now);
      const sum = list.reduce((total, e) => total + e.amount, 0);
      if (!hasRoom(sum, check.amount, check.cap))
        return { ok: false, index, waitMs: (list[0]?.at ?? now) + check.windowMs - now };
    }
    const id = newEntryId();
    for (const check of checks) {
      if (check.amount === 0) continue;
      let list = this.windows.get(check.key);
      if (!list) this.windows.set(check.key, (list = []));
      list.push({ at: now, id, amount: Math.round(check.amount) });
      this.lengths.set(check.key, check.windowMs);
    }
    return { ok: true, entry: id };
  }

  async settle(key: string, entry: string, _reserved: number, actual: number): Promise<void> {
    const found = this.windows.get(key)?.find((e) => e.id === entry);
    if (found) found.amount = Math.round(actual);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, windowMs] of this.lengths) {
      if (this.live(key, windowMs, now).length === 0) {
        this.windows.delete(key);
        this.lengths.delete(key);
      }
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
