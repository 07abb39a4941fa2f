export type ChangeTopic = "channels" | "tokens" | "users" | "options";

export const CHANGE_TOPICS: readonly ChangeTopic[] = ["channels", "tokens", "users", "options"];

type Listener = (id?: number) => void;

/** Amounts by user or token id. */
export type Amounts = Map<number, number>;

/** What a balance book hears of the charges other instances hold in memory. */
export interface RemoteSpending {
  /** Charges instance `origin` settled in one window (its `seq`-th such batch) and has not written yet. */
  settled(origin: string, seq: number, users: Amounts, tokens: Amounts): void;
  /**
   * Instance `origin` has written every charge it settled up to its batch `seq`, to the balances of `users` and
   * `tokens` (only balances moved: the rows' other fields did not change).
   */
  written(origin: string, seq: number, users: readonly number[], tokens: readonly number[]): void;
}

/** Which balance a lease is on: a user's quota or a limited token's remain. */
export type LeaseSide = "users" | "tokens";

/**
 * How long the charges this process settles are gathered into one announcement: one message per window instead of
 * one per event-loop turn, which under load is nearly one per call, sent to and parsed by every other instance.
 * The balance book's flush (every 50 ms by default) seals the window early, so under load it is one message per
 * flush: each instance sends and hears a fixed number per second, a cost per call that grows with the number of
 * instances (10 ms gave five to seven per flush). What keeps a balance spent once is the lease, not this message:
 * it only shows other instances' unwritten charges sooner.
 */
const SETTLED_WINDOW_MS = 50;

/** The charges this process settled in the current window, not yet told to other instances. */
interface SettledBatch {
  seq: number;
  users: Amounts;
  tokens: Amounts;
}

/**
 * Tells in-memory caches that stored data changed. Service writes emit after they commit; caches
 * (the relay's routing table, token and user caches, the balance book, options) listen and drop or
 * rebuild what they hold. Local emits are also handed to `outbox` so other processes hear of them.
 */
export class ChangeBus {
  private readonly listeners = new Map<ChangeTopic, Set<Listener>>();
  private readonly spending = new Set<RemoteSpending>();
  private readonly leaseWanted = new Set<(side: LeaseSide, id: number) => void>();
  private settledBatch: SettledBatch | null = null;
  private settledSeq = 0;
  outbox: ((topic: ChangeTopic, id?: number) => void) | undefined;
  /**
   * Tells other instances which balances this one has just written, and up to which settled batch (only where
   * instances share balances, i.e. through Redis); they deliver it as changes of those users and tokens and
   * re-read the balances.
   */
  spentOutbox: ((users: number[], tokens: number[], seq: number) => void) | undefined;
  /** Tells other instances what this one settled in one window, before it is written (set with `spentOutbox`). */
  settledOutbox: ((seq: number, users: Amounts, tokens: Amounts) => void) | undefined;
  /** Asks other instances for what their leases on a balance do not hold for calls (set with `spentOutbox`). */
  leaseWantedOutbox: ((side: LeaseSide, id: number) => void) | undefined;

  on(topic: ChangeTopic, listener: Listener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  onRemoteSpending(listener: RemoteSpending): () => void {
    this.spending.add(listener);
    return () => this.spending.delete(listener);
  }

  onLeaseWanted(listener: (side: LeaseSide, id: number) => void): () => void {
    this.leaseWanted.add(listener);
    return () => this.leaseWanted.delete(listener);
  }

  /** Asks other instances for their spare lease on a balance; answers whether anyone could hear it. */
  announceLeaseWanted(side: LeaseSide, id: number): boolean {
    this.leaseWantedOutbox?.(side, id);
    return this.leaseWantedOutbox !== undefined;
  }

  /** Another instance wants the spare of this one's lease on a balance. */
  deliverLeaseWanted(side: LeaseSide, id: number): void {
    for (const listener of this.leaseWanted) listener(side, id);
  }

  /** `id` names the one changed row when there is one; without it, everything of the topic may have changed. */
  emit(topic: ChangeTopic, id?: number): void {
    this.deliver(topic, id);
    this.outbox?.(topic, id);
  }

  /**
   * A charge this process settled (`tokenId` 0 when no limited token pays): summed with the others of this window
   * and told to other instances at its end, in one batch. Nothing is done when no other instance listens.
   */
  announceSettled(userId: number, tokenId: number, quota: number): void {
    if (!this.settledOutbox || quota <= 0) return;
    let batch = this.settledBatch;
    if (!batch) {
      batch = this.settledBatch = { seq: ++this.settledSeq, users: new Map(), tokens: new Map() };
      setTimeout(() => this.sendSettled(), SETTLED_WINDOW_MS).unref();
    }
    batch.users.set(userId, (batch.users.get(userId) ?? 0) + quota);
    if (tokenId) batch.tokens.set(tokenId, (batch.tokens.get(tokenId) ?? 0) + quota);
  }

  /**
   * Sends this window's batch now and answers the number of the last batch sent: a flush that takes every charge
   * settled so far writes all batches up to it.
   */
  sealSettled(): number {
    this.sendSettled();
    return this.settledSeq;
  }

  private sendSettled(): void {
    const batch = this.settledBatch;
    if (!batch) return;
    this.settledBatch = null;
    this.settledOutbox?.(batch.seq, batch.users, batch.tokens);
  }

  /** Balances this process wrote (its own caches already know), with all its batches up to `seq`: told to other processes only. */
  announceSpent(users: number[], tokens: number[], seq = 0): void {
    if (users.length + tokens.length > 0) this.spentOutbox?.(users, tokens, seq);
  }

  /** A change another process made: told to local listeners only. */
  deliver(topic: ChangeTopic, id?: number): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(id);
  }

  /** Charges another instance settled and has not written yet. */
  deliverSettled(origin: string, seq: number, users: Amounts, tokens: Amounts): void {
    for (const listener of this.spending) listener.settled(origin, seq, users, tokens);
  }

  /** Another instance has written every charge of its batches up to `seq` (0: none settled), to these balances. */
  deliverWritten(origin: string, seq: number, users: readonly number[] = [], tokens: readonly number[] = []): void {
    for (const listener of this.spending) listener.written(origin, seq, users, tokens);
  }
}
