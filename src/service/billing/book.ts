import { inTransaction, type Exec } from "../../db/exec";
import { readTokenRemain, readUserQuota, writeChargeTotals } from "../../db/queries/charges";
import { readOne, removeKey, upsert } from "../../db/queries/key-value";
import type { NewLogRow } from "../../db/schema";
import type { ChangeBus } from "../changes";
import { Account } from "./accounts";
import { totalCharges, type Charge } from "./charges";
import { ChargeJournal, ensureJournalDir, journalKey, orphanJournals } from "./journal";
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

/** Where the book journals settled charges until they are written: a folder, and the database they belong to. */
export interface JournalPlace {
  dir: string;
  databaseId: string;
}

/** A journal file grows to about this size, then the next charges go to a new one and it is removed once written. */
const JOURNAL_ROTATE_BYTES = 16 * 1024 * 1024;

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
 * from the database is never counted twice. With a journal place, each settled charge is also appended to a
 * journal file at once, so a process that dies between flushes loses nothing: the next start replays it.
 */
export class BalanceBook {
  private readonly users = new Map<number, Account>();
  private readonly tokens = new Map<number, Account>();
  private queue: Charge[] = [];
  private readonly serial = new SerialQueue();
  private readonly timer: Timer;
  private readonly unsubscribe: (() => void)[];
  /** Open journal files, the one written now last; earlier ones go once the database has all of them. */
  private readonly journals: ChargeJournal[] = [];

  constructor(
    private readonly db: Exec,
    private readonly changes: ChangeBus,
    private readonly flushMs = 50,
    private readonly journalPlace?: JournalPlace,
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
    this.enqueue({
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
    this.enqueue({ userId: log.user_id, tokenId: 0, tokenUnlimited: true, channelId: 0, quota: 0, debit: false, log });
  }

  private enqueue(charge: Charge): void {
    if (this.journalPlace) {
      if (this.journals.length === 0) this.journals.push(new ChargeJournal(this.journalPlace.dir, this.journalPlace.databaseId));
      this.journals.at(-1)!.append(charge);
    }
    this.queue.push(charge);
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
      for (const journal of this.journals) journal.sync();
      const marks = this.journals.map((journal) => ({ journal, bytes: journal.bytes }));
      const totals = totalCharges(batch);
      try {
        await inTransaction(this.db, async (tx) => {
          await writeChargeTotals(tx, totals);
          for (const { journal, bytes } of marks) await upsert(tx, "internals", journalKey(journal.name), String(bytes));
        });
      } catch (error) {
        this.queue = batch.concat(this.queue);
        console.error("[billing] flush failed, will retry:", error instanceof Error ? error.message : error);
        throw error;
      }
      for (const [id, d] of totals.users) this.moveToCommitted(this.users.get(id), d.quota);
      for (const [id, d] of totals.tokens) this.moveToCommitted(this.tokens.get(id), d.remain);
      this.changes.announceSpent([...totals.users.keys()], [...totals.tokens.keys()]);
      await this.retireJournals(marks);
    });
  }

  /** Removes journal files the database now holds entirely (all but the current one); rotates a large current one. */
  private async retireJournals(marks: { journal: ChargeJournal; bytes: number }[]): Promise<void> {
    const current = this.journals.at(-1);
    for (const { journal, bytes } of marks) {
      if (journal === current || journal.bytes !== bytes) continue;
      journal.close(true);
      this.journals.splice(this.journals.indexOf(journal), 1);
      await removeKey(this.db, "internals", journalKey(journal.name)).catch(() => {});
    }
    if (current && current.bytes > JOURNAL_ROTATE_BYTES) {
      this.journals.push(new ChargeJournal(this.journalPlace!.dir, this.journalPlace!.databaseId));
    }
  }

  /**
   * Writes the charges of journals left by a process that died before writing them (the part after what the
   * database records), each journal in one transaction that also records the whole file as written (so a
   * crash before the file is removed cannot replay it twice); then the file and its record go. Answers how many.
   */
  async recover(): Promise<number> {
    if (!this.journalPlace) return 0;
    ensureJournalDir(this.journalPlace.dir);
    let recovered = 0;
    for (const orphan of orphanJournals(this.journalPlace.dir, this.journalPlace.databaseId)) {
      const key = journalKey(orphan.name);
      try {
        const charges = orphan.charges(Number((await readOne(this.db, "internals", key)) ?? 0));
        const totals = totalCharges(charges);
        await this.serial.run(() =>
          inTransaction(this.db, async (tx) => {
            await writeChargeTotals(tx, totals);
            await upsert(tx, "internals", key, String(orphan.size));
          }),
        );
        orphan.remove();
        await removeKey(this.db, "internals", key).catch(() => {});
        recovered += charges.length;
      } catch (error) {
        orphan.release();
        console.error(`[billing] could not recover journal ${orphan.name}, will retry at the next start:`, error instanceof Error ? error.message : error);
      }
    }
    for (const account of [...this.users.values(), ...this.tokens.values()]) account.stale = true;
    return recovered;
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
    const written = this.queue.length === 0;
    for (const journal of this.journals.splice(0)) {
      journal.close(written);
      if (written) await removeKey(this.db, "internals", journalKey(journal.name)).catch(() => {});
    }
  }
}
