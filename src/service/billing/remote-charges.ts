import type { Amounts } from "../changes";
import { Account, type RemoteCharge } from "./accounts";

/**
 * How long a charge another instance settled but has not written counts here at most: the first reload of its
 * account after that forgets it. It bounds what a crashed instance (whose journal a later start replays), or a
 * lost announcement, can hold back; a live instance writes within a flush interval.
 */
const REMOTE_CHARGE_TTL_MS = 10_000;

/** Which of a book's account maps: users' balances or limited tokens' remains. */
export type Side = "users" | "tokens";

/** The charges another instance settled in one turn, kept until it writes them, for accounts first loaded meanwhile. */
interface RemoteBatch {
  origin: string;
  seq: number;
  at: number;
  users: Amounts;
  tokens: Amounts;
}

/**
 * The charges other instances sharing our balances (through Redis) have settled and not yet written, from when
 * they announce them until they announce them written: counted against the accounts held here, and against
 * accounts first loaded meanwhile.
 */
export class RemoteCharges {
  /** Other instances' unwritten batches, in arrival order. */
  private batches: RemoteBatch[] = [];
  /** The last batch each other instance has announced written. */
  private readonly written = new Map<string, number>();
  /** How long another instance's unwritten charge counts at most (see REMOTE_CHARGE_TTL_MS). */
  ttlMs = REMOTE_CHARGE_TTL_MS;

  /** `held` are the book's accounts, which a new batch reaches at once. */
  constructor(private readonly held: Record<Side, Map<number, Account>>) {}

  /** Another instance settled `users`' and `tokens`' amounts in its batch `seq`. */
  add(origin: string, seq: number, users: Amounts, tokens: Amounts): void {
    if (seq <= (this.written.get(origin) ?? 0)) return;
    const at = Date.now();
    while (this.batches.length > 0 && this.batches[0]!.at <= at - this.ttlMs) this.batches.shift();
    this.batches.push({ origin, seq, at, users, tokens });
    for (const [id, amount] of users) this.held.users.get(id)?.addRemote({ origin, seq, amount, at });
    for (const [id, amount] of tokens) this.held.tokens.get(id)?.addRemote({ origin, seq, amount, at });
  }

  /**
   * The database has `origin`'s batches up to `seq`. Accounts loaded from now on read them; held accounts they touched
   * forget them at their next reload, which the same announcement asks for by telling them as changed.
   */
  forgetWritten(origin: string, seq: number): void {
    if (seq <= (this.written.get(origin) ?? 0)) return;
    this.written.set(origin, seq);
    this.batches = this.batches.filter((batch) => batch.origin !== origin || batch.seq > seq);
  }

  /** Whether no remote charge the account counts has outlived its time (else the account is reloaded first). */
  allCurrent(account: Account): boolean {
    const oldest = account.remoteCharges[0];
    return oldest === undefined || oldest.at > Date.now() - this.ttlMs;
  }

  /** An account not loaded yet, with the unwritten charges other instances have told of. */
  newAccount(side: Side, id: number): Account {
    const account = new Account(0);
    account.stale = true;
    const expired = Date.now() - this.ttlMs;
    for (const batch of this.batches) {
      const amount = batch[side].get(id);
      if (amount !== undefined && batch.at > expired)
        account.addRemote({ origin: batch.origin, seq: batch.seq, amount, at: batch.at });
    }
    return account;
  }

  /**
   * The remote charges a reload starting now may forget: those announced written before it (the value it reads
   * has them) and expired ones. Charges written while it runs may be in the value too; they are kept, counted
   * twice until their announcement makes the account reload again.
   */
  forgettable(account: Account): Set<RemoteCharge> | undefined {
    if (account.remoteCharges.length === 0) return undefined;
    const expired = Date.now() - this.ttlMs;
    const written = (charge: RemoteCharge) => charge.seq <= (this.written.get(charge.origin) ?? 0);
    return new Set(account.remoteCharges.filter((charge) => charge.at <= expired || written(charge)));
  }
}
