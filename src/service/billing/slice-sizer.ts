/**
 * How many charges the next transaction of a SQLite flush takes: as many as about `budgetMs` of writing, from
 * what the slices before took a charge. A fixed count either holds the event loop too long where a charge is
 * slow to write (a cold page cache, a large log table) or commits too often where it is fast: at saturation,
 * slices of 64 made ~280 commits a second, each writing the log's hot index pages to the write-ahead log again
 * (3–5 µs of CPU per call more than slices of 256). Slices too small to time their charges (the fixed cost of a
 * commit dominates them) are not counted.
 */
export class SliceSizer {
  private msPerCharge: number;

  constructor(
    private readonly budgetMs: number,
    private readonly min: number,
    private readonly max: number,
  ) {
    this.msPerCharge = budgetMs / min;
  }

  next(): number {
    return Math.min(this.max, Math.max(this.min, Math.floor(this.budgetMs / this.msPerCharge)));
  }

  /** A slice of `charges` took `ms` to write and commit. */
  observe(charges: number, ms: number): void {
    if (charges < this.min) return;
    this.msPerCharge += (ms / charges - this.msPerCharge) / 2;
  }
}
