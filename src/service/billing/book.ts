import { inTransaction, type Exec } from "../../db/exec";
import { readTokenRemain, readUserQuota, writeChargeTotals } from "../../db/queries/charges";
import { removeKey, upsert } from "../../db/queries/key-value";
import type { NewLogRow } from "../../db/schema";
import type { Amounts, ChangeBus } from "../changes";
import { Account, type RemoteCharge } from "./accounts";
import { totalCharges, type Charge } from "./charges";
import { ChargeJournal, journalKey, type JournalPlace } from "./journal";
import { recoverJournals } from "./recovery";
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

/** How often the journal folder is looked at for journals of processes that died while this one runs. */
const RECOVER_EVERY_MS = 10_000;

/** A journal file grows to about this size, then the next charges go to a new one and it is removed once written. */
const JOURNAL_ROTATE_BYTES = 16 * 1024 * 1024;

/**
 * How long a charge another instance settled but has not written counts here at most: the first reload of its
 * account after that forgets it. It bounds what a crashed instance (whose journal a later start replays), or a
 * lost announcement, can hold back; a live instance writes within a flush interval.
 */
const REMOTE_CHARGE_TTL_MS = 10_000;

/** The charges another instance settled in one turn, kept until it writes them, for accounts first loaded meanwhile. */
interface RemoteBatch {
  origin: string;
  seq: number;
  at: number;
  users: Amounts;
  tokens: Amounts;
}

type Side = "users" | "tokens";

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
 * Where instances share balances (through Redis), each also counts the charges the others have settled and not yet
 * written, from when they announce them until the database has them.
 */
export class BalanceBook {
  private readonly users = new Map<number, Account>();
  private readonly tokens = new Map<number, Account>();
  private queue: Charge[] = [];
  private readonly serial = new SerialQueue();
  private readonly timer: Timer;
  private readonly recoverTimer?: Timer;
  /** The recovery under way, so the timer's and a caller's never run together. */
  private recovering?: Promise<number>;
  private readonly unsubscribe: (() => void)[];
  /** Open journal files, the one written now last; earlier ones go once the database has all of them. */
  private readonly journals: ChargeJournal[] = [];
  /** Other instances' unwritten batches, in arrival order. */
  private remoteBatches: RemoteBatch[] = [];
  /** The last batch each other instance has announced written. */
  private readonly remoteWritten = new Map<string, number>();
  /** Reservations neither settled nor released: the billable calls in flight. */
  private open = 0;
  private noneOpen?: () => void;
  /** How long another instance's unwritten charge counts at most (see REMOTE_CHARGE_TTL_MS). */
  remoteTtlMs = REMOTE_CHARGE_TTL_MS;

  constructor(
    private readonly db: Exec,
    private readonly changes: ChangeBus,
    private readonly flushMs = 50,
    private readonly journalPlace?: JournalPlace,
  ) {
    this.timer = setInterval(() => void this.flush().catch(() => {}), flushMs);
    this.timer.unref();
    if (journalPlace) {
      this.recoverTimer = setInterval(() => void this.recover().catch(() => {}), journalPlace.recoverEveryMs ?? RECOVER_EVERY_MS);
      this.recoverTimer.unref();
    }
    this.unsubscribe = [
      changes.on("users", (id) => this.markStale(this.users, id)),
      changes.on("tokens", (id) => this.markStale(this.tokens, id)),
      changes.onRemoteSpending({
        settled: (origin, seq, users, tokens) => this.addRemoteBatch(origin, seq, users, tokens),
        written: (origin, seq) => this.forgetWrittenBatches(origin, seq),
      }),
    ];
  }

  private markStale(accounts: Map<number, Account>, id?: number): void {
    if (id === undefined) for (const account of accounts.values()) account.markStale();
    else accounts.get(id)?.markStale();
  }

  private addRemoteBatch(origin: string, seq: number, users: Amounts, tokens: Amounts): void {
    if (seq <= (this.remoteWritten.get(origin) ?? 0)) return;
    const at = Date.now();
    while (this.remoteBatches.length > 0 && this.remoteBatches[0]!.at <= at - this.remoteTtlMs) this.remoteBatches.shift();
    this.remoteBatches.push({ origin, seq, at, users, tokens });
    for (const [id, amount] of users) this.users.get(id)?.addRemote({ origin, seq, amount, at });
    for (const [id, amount] of tokens) this.tokens.get(id)?.addRemote({ origin, seq, amount, at });
  }

  /**
   * The database has `origin`'s batches up to `seq`. Accounts loaded from now on read them; held accounts they touched
   * forget them at their next reload, which the same announcement asks for by telling them as changed.
   */
  private forgetWrittenBatches(origin: string, seq: number): void {
    if (seq <= (this.remoteWritten.get(origin) ?? 0)) return;
    this.remoteWritten.set(origin, seq);
    this.remoteBatches = this.remoteBatches.filter((batch) => batch.origin !== origin || batch.seq > seq);
  }

  /** Whether an account can be used as it is: nothing changed behind our back, and no remote charge outlived its time. */
  private usable(account: Account): boolean {
    if (account.stale) return false;
    const oldest = account.remoteCharges[0];
    return oldest === undefined || oldest.at > Date.now() - this.remoteTtlMs;
  }

  /** An account not loaded yet, with the unwritten charges other instances have told of. */
  private newAccount(side: Side, id: number): Account {
    const account = new Account(0);
    account.stale = true;
    const expired = Date.now() - this.remoteTtlMs;
    for (const batch of this.remoteBatches) {
      const amount = batch[side].get(id);
      if (amount !== undefined && batch.at > expired) account.addRemote({ origin: batch.origin, seq: batch.seq, amount, at: batch.at });
    }
    return account;
  }

  /**
   * The remote charges a reload starting now may forget: those announced written before it (the value it reads
   * has them) and expired ones. Charges written while it runs may be in the value too; they are kept, counted
   * twice until their announcement makes the account reload again.
   */
  private forgettable(account: Account): Set<RemoteCharge> | undefined {
    if (account.remoteCharges.length === 0) return undefined;
    const expired = Date.now() - this.remoteTtlMs;
    const written = (charge: RemoteCharge) => charge.seq <= (this.remoteWritten.get(charge.origin) ?? 0);
    return new Set(account.remoteCharges.filter((charge) => charge.at <= expired || written(charge)));
  }

  /** The account when it is held and usable as it is. */
  private held(side: Side, id: number): Account | undefined {
    const known = this[side].get(id);
    return known && this.usable(known) ? known : undefined;
  }

  /** The account, at once when it is held and usable; else after its (re)load. */
  private account(side: Side, id: number): Account | Promise<Account> {
    const accounts = this[side];
    return this.held(side, id) ?? this.serial.run(async () => {
      let account = accounts.get(id);
      if (account && this.usable(account)) return account;
      // Held before the read, so remote charges announced while it runs reach it.
      if (!account) accounts.set(id, (account = this.newAccount(side, id)));
      const marks = account.staleMarks;
      const forgettable = this.forgettable(account);
      account.committed = (await (side === "users" ? readUserQuota : readTokenRemain)(this.db, id)) ?? 0;
      if (forgettable) account.dropRemote(forgettable);
      account.stale = account.staleMarks !== marks;
      return account;
    });
  }

  /**
   * Holds `amount` from the user and, for a limited token, from the token; refuses when either cannot
   * cover it. Atomic: the check and the hold happen with no await between them.
   */
  async reserve(userId: number, token: { id: number; unlimited: boolean } | null, amount: number): Promise<Reservation> {
    const user = await this.account("users", userId);
    const limited = token && !token.unlimited ? await this.account("tokens", token.id) : null;
    return this.hold(userId, user, token, limited, amount);
  }

  /**
   * `reserve` without waiting: the reservation when both accounts are held and usable, undefined when one must
   * be loaded first (then `reserve`). Throws InsufficientQuotaError as `reserve` does.
   */
  reserveAtOnce(userId: number, token: { id: number; unlimited: boolean } | null, amount: number): Reservation | undefined {
    const user = this.held("users", userId);
    const limited = token && !token.unlimited ? this.held("tokens", token.id) : null;
    if (!user || limited === undefined) return undefined;
    return this.hold(userId, user, token, limited, amount);
  }

  private hold(userId: number, user: Account, token: { id: number; unlimited: boolean } | null, limited: Account | null, amount: number): Reservation {
    if (user.available < amount || user.available <= 0) throw new InsufficientQuotaError("user", user.available, amount);
    if (limited && (limited.available < amount || limited.available <= 0)) {
      throw new InsufficientQuotaError("token", limited.available, amount);
    }
    user.reserved += amount;
    if (limited) limited.reserved += amount;
    this.open++;
    return { userId, tokenId: token?.id ?? 0, tokenUnlimited: token?.unlimited ?? true, amount, closed: false };
  }

  /** Gives a reservation back (the call failed before anything was billable). Idempotent. */
  release(reservation: Reservation): void {
    if (reservation.closed) return;
    reservation.closed = true;
    if (--this.open === 0) this.noneOpen?.();
    this.users.get(reservation.userId)!.reserved -= reservation.amount;
    if (!reservation.tokenUnlimited) this.tokens.get(reservation.tokenId)!.reserved -= reservation.amount;
  }

  /** Turns a reservation into the exact charge and queues it with its log row. Idempotent. */
  settle(reservation: Reservation, charge: { channelId: number; quota: number; log: NewLogRow | null }): void {
    if (reservation.closed) return;
    this.release(reservation);
    this.users.get(reservation.userId)!.pending -= charge.quota;
    if (!reservation.tokenUnlimited) this.tokens.get(reservation.tokenId)!.pending -= charge.quota;
    this.changes.announceSettled(reservation.userId, reservation.tokenUnlimited ? 0 : reservation.tokenId, charge.quota);
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

  /**
   * Resolves once no call holds a reservation (each call in flight has settled or given its reservation back,
   * a stream whose client left included), or after `ms`: answers whether none is left.
   */
  async callsSettled(ms: number): Promise<boolean> {
    if (this.open === 0) return true;
    let timer: Timer | undefined;
    const settled = await new Promise<boolean>((resolve) => {
      this.noneOpen = () => resolve(true);
      timer = setTimeout(() => resolve(false), Math.max(0, ms));
    });
    clearTimeout(timer);
    this.noneOpen = undefined;
    return settled;
  }

  /** Queues a log row that moves no money (errors, channel tests). */
  record(log: NewLogRow): void {
    this.enqueue({ userId: log.user_id, tokenId: 0, tokenUnlimited: true, channelId: 0, quota: 0, debit: false, log });
  }

  /**
   * Queues the charge for the next flush and writes it to the journal at once. A journal that cannot be written
   * throws: the call is then not answered as complete (its charge still reaches the database with the flush).
   */
  private enqueue(charge: Charge): void {
    this.queue.push(charge);
    if (!this.journalPlace) return;
    if (this.journals.length === 0) this.journals.push(new ChargeJournal(this.journalPlace.dir, this.journalPlace.databaseId));
    this.journals.at(-1)!.append(charge);
  }

  /** What a user can still spend, as the relay sees it (for the billing endpoints and tests). */
  async availableOf(userId: number): Promise<number> {
    return (await this.account("users", userId)).available;
  }

  /** Writes every queued charge now; on failure the charges stay queued for the next attempt. */
  flush(): Promise<void> {
    return this.serial.run(async () => {
      if (this.queue.length === 0) return;
      const settledUpTo = this.changes.sealSettled();
      const batch = this.queue;
      this.queue = [];
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
      this.changes.announceSpent([...totals.users.keys()], [...totals.tokens.keys()], settledUpTo);
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
   * Writes the charges of journals left by processes that died before writing them (see `recoverJournals`).
   * Runs at start and on a timer (a writer may die while this process runs). Answers how many charges it wrote.
   */
  recover(): Promise<number> {
    if (!this.journalPlace) return Promise.resolve(0);
    this.recovering ??= recoverJournals(this.db, this.serial, this.changes, this.journalPlace).finally(() => (this.recovering = undefined));
    return this.recovering;
  }

  private moveToCommitted(account: Account | undefined, delta: number): void {
    if (!account) return;
    account.committed += delta;
    account.pending -= delta;
  }

  /** Stops the timer and writes everything still queued. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.recoverTimer);
    await this.recovering?.catch(() => {});
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
