/**
 * One balance as the gateway sees it between database writes:
 * committed (last value read from or written to the database) + pending (settled, not yet written)
 * − reserved (held by calls in flight).
 */
export class Account {
  pending = 0;
  reserved = 0;
  /** Set when the stored value changed behind our back (an admin edit, a top-up); reloaded before use. */
  stale = false;

  constructor(public committed: number) {}

  get available(): number {
    return this.committed + this.pending - this.reserved;
  }
}
