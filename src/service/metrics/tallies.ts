import type { Metric, MetricValueWithName, Registry } from "prom-client";

type LabelSet = Record<string, string>;

/** One label set's count. */
export class CountCell {
  value = 0;
  constructor(readonly labels: LabelSet) {}

  /** A counter only grows: a negative or non-finite amount is not counted. */
  add(by: number): void {
    if (by > 0 && by !== Infinity) this.value += by;
  }
}

/** One label set's histogram: a count per bucket (made cumulative when read), the sum and the count. */
export class BucketCell {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(
    readonly labels: LabelSet,
    private readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    this.sum += value;
    this.count++;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }
}

/**
 * A metric kept as plain numbers per label set, read by a prom-client registry at a scrape (through `get`, the
 * shape prom-client's own metrics answer). The relay keeps the cells of a call's labels and adds to them: no
 * label hashing per call, which in prom-client's counters and histograms cost ~7 % of a relayed call's CPU.
 */
abstract class Tallied<C extends { labels: LabelSet }> implements Scraped {
  readonly aggregator = "sum";
  private readonly cells = new Map<string, C>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  abstract readonly type: "counter" | "histogram";
  protected abstract newCell(labels: LabelSet): C;
  protected abstract valuesOf(cell: C): MetricValueWithName<string>[];
  protected abstract zero(cell: C): void;

  /** The cell of a label set (its labels in `labelNames` order), made on first use. */
  cell(labels: LabelSet): C {
    const key = JSON.stringify(this.labelNames.map((name) => labels[name]));
    let cell = this.cells.get(key);
    if (!cell) {
      const ordered: LabelSet = {};
      for (const name of this.labelNames) ordered[name] = labels[name] ?? "";
      cell = this.newCell(ordered);
      this.cells.set(key, cell);
    }
    return cell;
  }

  /** What a scrape reads, in the shape of prom-client's own `get`. */
  async get() {
    const values = [...this.cells.values()].flatMap((cell) => this.valuesOf(cell));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Zeroes every cell in place (the relay keeps references to them). */
  reset(): void {
    for (const cell of this.cells.values()) this.zero(cell);
  }
}

/** A metric a prom-client registry can read at a scrape: what its own metrics answer to `get` and `reset`. */
export interface Scraped {
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: unknown[] }>;
  reset(): void;
}

export function registerScraped(registry: Registry, metric: Scraped): void {
  // prom-client's registry reads any metric through `get` and `reset`; its types list only its own classes.
  registry.registerMetric(metric as unknown as Metric);
}

/** A gauge read when scraped, without labels (a value it cannot read reads 0, as an unset prom-client gauge). */
export class ReadGauge implements Scraped {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number | undefined,
  ) {}

  async get() {
    const values = [{ labels: {}, value: this.read() ?? 0 }];
    return { name: this.name, help: this.help, type: "gauge", aggregator: "sum", values };
  }

  reset(): void {}
}

export class TalliedCounter extends Tallied<CountCell> {
  readonly type = "counter";
  protected newCell(labels: LabelSet) {
    return new CountCell(labels);
  }
  protected valuesOf(cell: CountCell) {
    return [{ labels: cell.labels, value: cell.value }];
  }
  protected zero(cell: CountCell) {
    cell.value = 0;
  }
}

export class TalliedHistogram extends Tallied<BucketCell> {
  readonly type = "histogram";
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }
  protected newCell(labels: LabelSet) {
    return new BucketCell(labels, this.bounds);
  }
  protected valuesOf(cell: BucketCell) {
    const bucket = `${this.name}_bucket`;
    let below = 0;
    const values: MetricValueWithName<string>[] = this.bounds.map((le, i) => {
      below += cell.counts[i]!;
      return { labels: { ...cell.labels, le }, value: below, metricName: bucket };
    });
    values.push(
      { labels: { ...cell.labels, le: "+Inf" }, value: cell.count, metricName: bucket },
      { labels: cell.labels, value: cell.sum, metricName: `${this.name}_sum` },
      { labels: cell.labels, value: cell.count, metricName: `${this.name}_count` },
    );
    return values;
  }
  protected zero(cell: BucketCell) {
    cell.counts.fill(0);
    cell.sum = 0;
    cell.count = 0;
  }
}
