import { inTransaction, type Exec } from "../../db/exec";
import { readTokenRemain, readUserQuota, writeChargeTotals, type ChargeTotals } from "../../db/queries/charges";
import type { NewLogRow } from "../../db/schema";
import type { ChangeBus } from "../changes";
import type { Account } from "./accounts";
import { totalCharges, type Charge } from "./charges";
import type { JournalPlace, LineEnd } from "./journal";
import { InsufficientQuotaError } from "./insufficient";
import { JournalSet } from "./journal-set";
import { BalanceLeases } from "./leases";
import { PendingRefreshes } from "./refreshes";
import { ArmedTimer } from "../../shared/armed-timer";
import { RemoteCharges, type Side } from "./remote-charges";
import { SerialQueue } from "./serial";
import { SliceSizer } from "./slice-sizer";

/** How often at most a balance that other instances keep writing is re-read here. */
const REFRESH_WINDOW_MS = 200;

/**
 * About how long one transaction of a flush on SQLite may take; a larger batch is written in slices sized to it
 * (SliceSizer), other work running between them. There a flush runs synchronously: thousands of calls ending
 * together (a wave of streams, or the backlog of a pause) held every open stream for over 100 ms in one
 * transaction. A server database's flush waits on the network, so it stays one transaction: slices there only
 * multiplied the transactions on the hot balance rows that several instances share (3 instances' CPU per call
 * 1.17–1.35× one → 1.42–1.64× in one run).
 */
const SQLITE_SLICE_MS = 4;
/**
 * The bounds of a slice, in charges: the first slices, before any was timed, take the least; the most keeps a slice
 * that meets a slow stretch (~60 µs a charge was seen) under ~60 ms before the sizer hears of it.
 */
const SQLITE_SLICE_MIN = 64;
const SQLITE_SLICE_MAX = 1024;

/** A settled charge waiting for a flush, and where its journal line ends (none without a journal). */
interface Queued {
  charge: Charge;
  end?: LineEnd;
}

/** The token a call is held against: its id, and whether its quota is unlimited (then only the user's is held). */
export interface HeldToken {
  id: number;
  unlimited: boolean;
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
 * settle (or release) after it, and a writer flushes settled charges with their log rows in one transaction at
 * most every `flushMs` (none while nothing is queued). Reloads of changed balances run in the same serial queue as
 * flushes, so a value read from the database is never counted twice. With a journal place, each settled charge is also
 * appended to a journal file at once (JournalSet), so a process that dies between flushes loses nothing: the next
 * start replays it. Where instances share balances (through Redis), each also counts the charges the others have
 * settled and not yet written (RemoteCharges), from when they announce them until the database has them. What makes
 * a balance spent once across instances is the lease (BalanceLeases): a reservation must also fit in this instance's
 * lease, which the database grants atomically.
 */
export class BalanceBook {
  private readonly users = new Map<number, Account>();
  private readonly tokens = new Map<number, Account>();
  private queue: Queued[] = [];
  private readonly serial = new SerialQueue();
  private readonly slices = new SliceSizer(SQLITE_SLICE_MS, SQLITE_SLICE_MIN, SQLITE_SLICE_MAX);
  /** The next flush, armed when a charge is queued: an idle book wakes nobody (it was 20 wake-ups a second). */
  private readonly flushTimer = new ArmedTimer(() => this.timedFlush());
  /** When the timer last started a flush (performance.now()). */
  private lastTimedFlush = Number.NEGATIVE_INFINITY;
  private readonly unsubscribe: (() => void)[];
  /** With a journal place: the journals settled charges are written to until the database has them. */
  private readonly journals?: JournalSet;
  private readonly remote = new RemoteCharges({ users: this.users, tokens: this.tokens });
  private readonly leases: BalanceLeases;
  private readonly refreshes = new PendingRefreshes((wanted) => this.refresh(wanted), REFRESH_WINDOW_MS);
  /** Reservations neither settled nor released: the billable calls in flight. */
  private open = 0;
  private noneOpen?: () => void;
  /** Told, after each write, the balances of the users it charged (the low-balance reminder listens); never awaited. */
  onWritten?: (balances: ReadonlyMap<number, number>) => void;

  constructor(
    private readonly db: Exec,
    private readonly changes: ChangeBus,
    private readonly flushMs = 50,
    journalPlace?: JournalPlace,
  ) {
    if (journalPlace) this.journals = new JournalSet(db, this.serial, changes, journalPlace);
    this.leases = new BalanceLeases(db, this.serial, changes, { users: this.users, tokens: this.tokens });
    this.unsubscribe = [
      changes.on("users", (id) => this.markStale(this.users, id)),
      changes.on("tokens", (id) => this.markStale(this.tokens, id)),
      changes.onRemoteSpending({
        settled: (origin, seq, users, tokens) => this.remote.add(origin, seq, users, tokens),
        written: (origin, seq, users, tokens) => {
          this.remote.forgetWritten(origin, seq);
          this.refreshes.ask("users", users);
          this.refreshes.ask("tokens", tokens);
        },
      }),
    ];
  }

  /** How long another instance's unwritten charge counts here at most. */
  get remoteTtlMs(): number {
    return this.remote.ttlMs;
  }

  set remoteTtlMs(ms: number) {
    this.remote.ttlMs = ms;
  }

  private markStale(accounts: Map<number, Account>, id?: number): void {
    if (id === undefined) for (const account of accounts.values()) account.markStale();
    else accounts.get(id)?.markStale();
  }

  /** Whether an account can be used as it is: nothing changed behind our back, and no remote charge outlived its time. */
  private usable(account: Account): boolean {
    return !account.stale && this.remote.allCurrent(account);
  }

  /** The account when it is held and usable as it is. */
  private held(side: Side, id: number): Account | undefined {
    const known = this[side].get(id);
    return known && this.usable(known) ? known : undefined;
  }

  /** The account, at once when it is held and usable; else after its (re)load. */
  private account(side: Side, id: number): Account | Promise<Account> {
    const accounts = this[side];
    return (
      this.held(side, id) ??
      this.serial.run(async () => {
        let account = accounts.get(id);
        if (account && this.usable(account)) return account;
        // Held before the read, so remote charges announced while it runs reach it.
        if (!account) accounts.set(id, (account = this.remote.newAccount(side, id)));
        await this.reload(side, id, account);
        return account;
      })
    );
  }

  /** Reads the stored balance (in the serial queue, so no flush of ours runs meanwhile). */
  private async reload(side: Side, id: number, account: Account): Promise<void> {
    const marks = account.staleMarks;
    const forgettable = this.remote.forgettable(account);
    account.committed = (await (side === "users" ? readUserQuota : readTokenRemain)(this.db, id)) ?? 0;
    if (forgettable) account.dropRemote(forgettable);
    account.stale = account.staleMarks !== marks;
  }

  /**
   * Re-reads the held balances other instances wrote charges to, so they stop counting those charges. Calls do not
   * wait for it: until it has run, the balance counts them as unwritten, which is the same money.
   */
  private refresh(wanted: Record<Side, Set<number>>): Promise<void> {
    return this.serial.run(async () => {
      for (const side of ["users", "tokens"] as const) {
        for (const id of wanted[side]) {
          const account = this[side].get(id);
          if (account) await this.reload(side, id, account);
        }
      }
    });
  }

  /**
   * Holds `amount` from the user and, for a limited token, from the token; refuses when either cannot
   * cover it. Atomic: the check and the hold happen with no await between them. Where this instance's lease is
   * short, it takes more first (then checks again: calls that ran meanwhile may have held it).
   */
  async reserve(userId: number, token: HeldToken | null, amount: number): Promise<Reservation> {
    for (let attempt = 1; ; attempt++) {
      const user = await this.account("users", userId);
      const limited = token && !token.unlimited ? await this.account("tokens", token.id) : null;
      const fits = (account: Account | null) => !account || BalanceLeases.spare(account) >= amount;
      if ((fits(user) && fits(limited)) || attempt === 3) return this.hold(userId, user, token, limited, amount);
      this.checkBalances(user, limited, amount);
      if (!fits(user)) await this.leases.extend("users", userId, user, amount);
      if (!fits(limited)) await this.leases.extend("tokens", token!.id, limited!, amount);
    }
  }

  /**
   * `reserve` without waiting: the reservation when both accounts are held and usable and their leases cover it,
   * undefined when one must be loaded or leased first (then `reserve`). Throws InsufficientQuotaError as `reserve`
   * does when the lease covers the call but the balance does not.
   */
  reserveAtOnce(userId: number, token: HeldToken | null, amount: number): Reservation | undefined {
    const user = this.held("users", userId);
    const limited = token && !token.unlimited ? this.held("tokens", token.id) : null;
    if (!user || limited === undefined) return undefined;
    if (BalanceLeases.spare(user) < amount || (limited && BalanceLeases.spare(limited) < amount)) return undefined;
    return this.hold(userId, user, token, limited, amount);
  }

  /** Refuses when the user's balance or the limited token's remain, as this instance sees it, cannot cover `amount`. */
  private checkBalances(user: Account, limited: Account | null, amount: number): void {
    if (user.available < amount || user.available <= 0)
      throw new InsufficientQuotaError("user", user.available, amount);
    if (limited && (limited.available < amount || limited.available <= 0)) {
      throw new InsufficientQuotaError("token", limited.available, amount);
    }
  }

  private hold(
    userId: number,
    user: Account,
    token: HeldToken | null,
    limited: Account | null,
    amount: number,
  ): Reservation {
    this.checkBalances(user, limited, amount);
    if (BalanceLeases.spare(user) < amount) throw new InsufficientQuotaError("user", BalanceLeases.spare(user), amount);
    if (limited && BalanceLeases.spare(limited) < amount) {
      throw new InsufficientQuotaError("token", BalanceLeases.spare(limited), amount);
    }
    user.reserved += amount;
    user.holds++;
    if (limited) {
      limited.reserved += amount;
      limited.holds++;
    }
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
    this.changes.announceSettled(
      reservation.userId,
      reservation.tokenUnlimited ? 0 : reservation.tokenId,
      charge.quota,
    );
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
   * Queues the charge for the next flush and appends it to the journal (on disk by the end of the turn: see
   * `durable`). A journal that cannot be written fails the replies waiting for it: the call is then not answered
   * as complete (its charge still reaches the database with the flush).
   */
  private enqueue(charge: Charge): void {
    this.queue.push({ charge, end: this.journals?.append(charge) });
    this.flushSoon();
  }

  /**
   * Arms the next flush: `flushMs` after the last one started, so that under steady load flushes keep one cadence
   * (timed from the end of each, a flush of 20 ms would make every batch 40 % larger and hold the event loop that much
   * longer); at the next turn when the last one is older. Armed again after a flush that left charges queued.
   */
  private flushSoon(): void {
    this.flushTimer.arm(this.lastTimedFlush + this.flushMs - performance.now());
  }

  private timedFlush(): void {
    this.lastTimedFlush = performance.now();
    void this.flush()
      .catch(() => {})
      .then(() => {
        if (this.queue.length > 0) this.flushSoon();
      });
  }

  /**
   * Settles when every charge settled so far is in the journal; undefined when all are (or there is no journal).
   * A reply waits for it before its last bytes go out, so a client never holds an answer whose charge a crash
   * could lose.
   */
  durable(): Promise<void> | undefined {
    return this.journals?.durable();
  }

  /** What a user can still spend, as the relay sees it (for the billing endpoints and tests). */
  async availableOf(userId: number): Promise<number> {
    return (await this.account("users", userId)).available;
  }

  /** For the operator's metrics: calls holding a reservation, charges waiting for a flush, journal bytes, last flush. */
  stats(): { reservations: number; queued: number; journalBytes: number; lastFlushMs: number } {
    return {
      reservations: this.open,
      queued: this.queue.length,
      journalBytes: this.journals?.bytes ?? 0,
      lastFlushMs: this.lastFlushMs,
    };
  }

  private lastFlushMs = 0;
  /** Told the duration of each flush that wrote something (seconds). */
  onFlush?: (seconds: number) => void;

  /**
   * Writes every queued charge now, on SQLite in slices of about SQLITE_SLICE_MS each (a transaction each, with its journal mark);
   * on failure the charges not written stay queued for the next attempt. The other instances are told once the
   * whole batch is written (or, on failure, which balances its written slices changed).
   */
  flush(): Promise<void> {
    return this.serial.run(async () => {
      if (this.queue.length === 0) return;
      const settledUpTo = this.changes.sealSettled();
      const batch = this.queue;
      this.queue = [];
      const users = new Set<number>();
      const tokens = new Set<number>();
      const began = performance.now();
      let complete = false;
      try {
        const sliced = this.db.dialect === "sqlite";
        for (let from = 0; from < batch.length; ) {
          if (from > 0) await new Promise((resolve) => setImmediate(resolve));
          const slice = batch.slice(from, sliced ? from + this.slices.next() : batch.length);
          try {
            const sliceBegan = performance.now();
            await this.writeSlice(slice, users, tokens);
            if (sliced) this.slices.observe(slice.length, performance.now() - sliceBegan);
            from += slice.length;
          } catch (error) {
            this.queue = batch.slice(from).concat(this.queue);
            console.error("[billing] flush failed, will retry:", error instanceof Error ? error.message : error);
            throw error;
          }
        }
        complete = true;
      } finally {
        // Balances written by part of a batch: refreshed elsewhere, their unwritten charges still counted there.
        this.changes.announceSpent([...users], [...tokens], complete ? settledUpTo : 0);
      }
      this.lastFlushMs = performance.now() - began;
      this.onFlush?.(this.lastFlushMs / 1000);
    });
  }

  /** One transaction of a flush: the slice's charges, and the journal mark just past the last of them. */
  private async writeSlice(slice: Queued[], users: Set<number>, tokens: Set<number>): Promise<void> {
    const last = slice.at(-1)!.end;
    const marks = last ? this.journals?.marksThrough(last) : this.journals?.marks();
    const totals = totalCharges(slice.map((queued) => queued.charge));
    const spent = await inTransaction(this.db, async (tx) => {
      // Journal marks first, the hot balance rows last: a flush holds those rows' locks the shortest time.
      if (marks) await this.journals!.recordMarks(tx, marks);
      await writeChargeTotals(tx, totals);
      return this.leases.spend(tx, debits(totals));
    });
    spent();
    for (const [id, d] of totals.users) {
      this.moveToCommitted(this.users.get(id), d.quota);
      users.add(id);
    }
    for (const [id, d] of totals.tokens) {
      this.moveToCommitted(this.tokens.get(id), d.remain);
      tokens.add(id);
    }
    if (marks) await this.journals!.retire(marks);
    this.tellWritten(totals.users.keys());
  }

  /**
   * Writes the charges of journals left by processes that died before writing them (see `recoverJournals`).
   * Runs at start and on a timer (a writer may die while this process runs). Answers how many charges it wrote.
   */
  recover(): Promise<number> {
    return this.journals?.recover() ?? Promise.resolve(0);
  }

  private tellWritten(userIds: Iterable<number>): void {
    if (!this.onWritten) return;
    const balances = new Map<number, number>();
    for (const id of userIds) {
      const account = this.users.get(id);
      // The settled balance: what calls still in flight hold is not spent yet.
      if (account) balances.set(id, account.committed + account.pending - account.remote);
    }
    queueMicrotask(() => this.onWritten?.(balances));
  }

  private moveToCommitted(account: Account | undefined, delta: number): void {
    if (!account) return;
    account.committed += delta;
    account.pending -= delta;
  }

  /** Renews this instance's leases and gives idle ones back now (else once a second). */
  tendLeases(now?: number): Promise<void> {
    return this.leases.tick(now);
  }

  /** Stops the timer, writes everything still queued and gives the leases back. */
  async close(): Promise<void> {
    this.flushTimer.stop();
    this.refreshes.close();
    await this.journals?.stopRecovering();
    for (const off of this.unsubscribe) off();
    for (let attempt = 0; attempt < 5 && this.queue.length > 0; attempt++) {
      await this.flush().catch(() => Bun.sleep(100));
    }
    // Leases under charges not written stay, for the next start or another instance to reclaim with the journal.
    await this.leases.close(this.queue.length === 0).catch(() => {});
    await this.journals?.close(this.queue.length === 0);
  }
}

/** The amounts a batch debits from users' balances and limited tokens' remains, as positive numbers. */
function debits(totals: ChargeTotals): Record<Side, Map<number, number>> {
  const users = new Map<number, number>();
  const tokens = new Map<number, number>();
  for (const [id, d] of totals.users) if (d.quota < 0) users.set(id, -d.quota);
  for (const [id, d] of totals.tokens) if (d.remain < 0) tokens.set(id, -d.remain);
  return { users, tokens };
}
