/** A charge another instance settled and has not written yet: its batch, the amount, and when we heard of it. */
export interface RemoteCharge {
  readonly origin: string;
  readonly seq: number;
  readonly amount: number;
  readonly at: number;
}

/**
 * One balance as the gateway sees it between database writes:
 * committed (last value read from or written to the database) + pending (settled, not yet written)
 * − reserved (held by calls in flight) − remote (settled by other instances, not yet written by them).
 */
export class Account {
  pending = 0;
  reserved = 0;
  remote = 0;
  /** What `remote` sums, oldest first. */
  remoteCharges: RemoteCharge[] = [];
  /** This instance's lease on the balance (see BalanceLeases): what it may hold without asking the database. */
  lease = 0;
  /** Calls that held money from the account so far (a count, not a clock: the hot path reads no time). */
  holds = 0;
  /** `holds` as the lease's last tick saw it, and since when it has not moved (an idle lease goes back). */
  seenHolds = 0;
  quietSince = 0;
  /** Set when the stored value changed behind our back (an admin edit, a top-up); reloaded before use. */
  stale = false;
  /** Counts the times the account was marked stale, so a reload that a change overtook leaves it stale. */
  staleMarks = 0;

  constructor(public committed: number) {}

  get available(): number {
    return this.committed + this.pending - this.reserved - this.remote;
  }

  markStale(): void {
    this.stale = true;
    this.staleMarks++;
  }

  addRemote(charge: RemoteCharge): void {
    this.remoteCharges.push(charge);
    this.remote += charge.amount;
  }

  dropRemote(charges: Set<RemoteCharge>): void {
    this.remoteCharges = this.remoteCharges.filter((charge) => !charges.has(charge));
    this.remote = this.remoteCharges.reduce((sum, charge) => sum + charge.amount, 0);
  }
}
