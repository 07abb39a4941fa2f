/**
 * Work gathered for the end of the event loop's turn (requests to send, charges to write, reads to give up on)
 * waits at most this long: with thousands of streams open a turn lasts tens to hundreds of milliseconds, and each
 * caller waiting for its end added all of it to a call's first byte or its [DONE].
 */
const TURN_BATCH_MS = 1;

/** When a batch for the turn's end was opened, and whether the next caller should write it now instead. */
export class TurnBatch {
  private openedAt = 0;

  /** A new batch starts now. */
  open(): void {
    this.openedAt = performance.now();
  }

  /** The batch has waited long enough: the caller finding it so writes it. */
  get overdue(): boolean {
    return performance.now() - this.openedAt >= TURN_BATCH_MS;
  }
}
