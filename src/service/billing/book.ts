import { inTransaction, type Exec } from "../../db/exec";
import { readTokenRemain, readUserQuota, writeChargeTotals } from "../../db/queries/charges";
import type { NewLogRow } from "../../db/schema";
import type { ChangeBus } from "../changes";
import { Account } from "./accounts";
import { totalCharges, type Charge } from "./charges";
import { SerialQueue } from "./serial";

export class InsufficientQuotaError extends Error {
  constructor(
    readonly who: "user" | "token",
    readonly available: number,
    readonly needed: number,
  ) {
    super(`${who} quota is not enough: ${available} available, ${needed} needed`);
  }
}

export interface Reservation {
  readonly userId: number;
  readonly tokenId: number;
  readonly tokenUnlimited: boolean;
  readonly amount: number;
  closed: boolean;
}

/**
 * Balances held in memory so a relayed call never waits on the database: reserve before the upstream call,
 * settle (or release) after it, and a writer flushes settled charges with their log rows in one transaction
 * every `flushMs`. Reloads of changed balances run in the same serial queue as flushes, so a value read
 * from the database is never counted twice.
 */
export class BalanceBook {
  private readonly users = new Map<number, Account>();
  private readonly tokens = new Map<number, Account>();
  private queue: Charge[] = [];
  private readonly serial = new SerialQueue();
  private readonly timer: Timer;
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly db: Exec,
    changes: ChangeBus,
    private readonly flushMs = 50,
  ) {
    this.timer = setInterval(() => void this.flush().catch(() => {}), flushMs);
    this.timer.unref();
    this.unsubscribe = [
      changes.on("users", (id) => this.markStale(this.users, id)),
      changes.on("tokens", (id) => this.markStale(this.tokens, id)),
    ];
  }

  private markStale(accounts: Map<number, Account>, id?: number): void {
    if (id === undefined) for (const account of accounts.values()) account.stale = true;
    else {
      const account = accounts.get(id);
      if (account) account.stale = true;
    }
  }

  private async account(
    accounts: Map<number, Account>,
    id: number,
    read: (db: Exec, id: number) => Promise<number | undefined>,
  ): Promise<Account> {
    const known = accounts.get(id);
    if (known && !known.stale) return known;
    return this.serial.run(async () => {
      const current = accounts.get(id);
      if (current && !current.stale) return current;
      const stored = (await read(this.db, id)) ?? 0;
      if (current) {
        current.committed = stored;
        current.stale = false;
        return current;
      }
      const fresh = new Account(stored);
      accounts.set(id, fresh);
      return fresh;
    });
  }

  /**
   * Holds `amount` from the user and, for a limited token, from the token; refuses when either cannot
   * cover it. Atomic: the check and the hold happen with no await between them.
   */
  async reserve(userId: number, token: { id: number; unlimited: boolean } | null, amount: number): Promise<Reservation> {
    const user = await this.account(this.users, userId, readUserQuota);
    const limited = token && !token.unlimited ? await this.account(this.tokens, token.id, readTokenRemain) : null;
    if (user.available < amount || user.available <= 0) throw new InsufficientQuotaError("user", user.available, amount);
    if (limited && (limited.available < amount || limited.available <= 0)) {
      throw new InsufficientQuotaError("token", limited.available, amount);
    }
    user.reserved += amount;
    if (limited) limited.reserved += amount;
    return { userId, tokenId: token?.id ?? 0, tokenUnlimited: token?.unlimited ?? true, amount, closed: false };
  }

  /** Gives a reservation back (the call failed before anything was billable). Idempotent. */
  release(reservation: Reservation): void {
    if (reservation.closed) return;
    reservation.closed = true;
    this.users.get(reservation.userId)!.reserved -= reservation.amount;
    if (!reservation.tokenUnlimited) this.tokens.get(reservation.tokenId)!.reserved -= reservation.amount;
  }

  /** Turns a reservation into the exact charge and queues it with its log row. Idempotent. */
  settle(reservation: Reservation, charge: { channelId: number; quota: number; log: NewLogRow | null }): void {
    if (reservation.closed) return;
    this.release(reservation);
    this.users.get(reservation.userId)!.pending -= charge.quota;
    if (!reservation.tokenUnlimited) this.tokens.get(reservation.tokenId)!.pending -= charge.quota;
    this.queue.push({
      userId: reservation.userId,
      tokenId: reservation.tokenId,
      tokenUnlimited: reservation.tokenUnlimited,
      channelId: charge.channelId,
      quota: charge.quota,
      debit: true,
      log: charge.log,
    });
  }

  /** Queues a log row that moves no money (errors, channel tests). */
  record(log: NewLogRow): void {
    this.queue.push({ userId: log.user_id, tokenId: 0, tokenUnlimited: true, channelId: 0, quota: 0, debit: false, log });
  }

  /** What a user can still spend, as the relay sees it (for the billing endpoints and tests). */
  async availableOf(userId: number): Promise<number> {
    return (await this.account(this.users, userId, readUserQuota)).available;
  }

  /** Writes every queued charge now; on failure the charges stay queued for the next attempt. */
  flush(): Promise<void> {
    return this.serial.run(async () => {
      if (this.queue.length === 0) return;
      const batch = this.queue;
      this.queue = [];
      const totals = totalCharges(batch);
      try {
        await inTransaction(this.db, (tx) => writeChargeTotals(tx, totals));
      } catch (error) {
        this.queue = batch.concat(this.queue);
        console.error("[billing] flush failed, will retry:", error instanceof Error ? error.message : error);
        throw error;
      }
      for (const [id, d] of totals.users) this.moveToCommitted(this.users.get(id), d.quota);
      for (const [id, d] of totals.tokens) this.moveToCommitted(this.tokens.get(id), d.remain);
    });
  }

  private moveToCommitted(account: Account | undefined, delta: number): void {
    if (!account) return;
    account.committed += delta;
    account.pending -= delta;
  }

  /** Stops the timer and writes everything still queued. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const off of this.unsubscribe) off();
    for (let attempt = 0; attempt < 5 && this.queue.length > 0; attempt++) {
      await this.flush().catch(() => Bun.sleep(100));
    }
  }
}
