import type { Registry } from "prom-client";
import {
  type BucketCell,
  type CountCell,
  ReadGauge,
  registerScraped,
  type Scraped,
  TalliedCounter,
  TalliedHistogram,
} from "./tallies";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const FLUSH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** What the gauges read at each scrape: live figures kept by the book, token cache and database pool. */
export interface GaugeSources {
  book(): { reservations: number; queued: number; journalBytes: number };
  tokenCache(): { hits: number; misses: number };
  pool(): { inUse: number; size: number } | undefined;
}

/** A settled call, as the metrics count it. */
export interface SettledCall {
  endpoint: string;
  model: string;
  channel: number;
  seconds: number;
  firstByteSeconds: number;
  promptTokens: number;
  completionTokens: number;
  quota: number;
}

/** The cells a settled call adds to, kept per endpoint, model and channel. */
interface SettledCells {
  requests: CountCell;
  duration: BucketCell;
  firstByte: BucketCell;
  promptTokens: CountCell;
  completionTokens: CountCell;
  quota: CountCell;
}

/**
 * The relay's Prometheus metrics. A settled call adds to the cells of its labels, found with one lookup: every
 * metric here is a tally (see tallies.ts) or a gauge read at a scrape. prom-client, which writes them in
 * Prometheus's text, is loaded at the first scrape: an instance nobody scrapes does not carry its ~8 600 objects
 * in the heap that every full collection marks.
 */
export class RelayMetrics {
  private readonly requests: TalliedCounter;
  private readonly errors: TalliedCounter;
  private readonly duration: TalliedHistogram;
  private readonly firstByte: TalliedHistogram;
  private readonly tokens: TalliedCounter;
  private readonly quota: TalliedCounter;
  private readonly settledCells = new Map<string, SettledCells>();
  private readonly flushes: BucketCell;
  private readonly upstreamFailures: TalliedCounter;
  /** Everything a scrape reads, in the order it is written (the order the metrics are made in). */
  private readonly scraped: Scraped[] = [];
  private registry: Promise<Registry> | undefined = undefined;

  constructor(sources: GaugeSources) {
    this.requests = this.counter(
      "tollgate_relay_requests_total",
      "Relayed calls by endpoint, model, channel and HTTP status (failures refused before a channel: channel 0)",
      ["endpoint", "model", "channel", "status"],
    );
    this.errors = this.counter(
      "tollgate_relay_errors_total",
      "Relayed calls answered with an error, by endpoint and HTTP status",
      ["endpoint", "status"],
    );
    this.duration = this.histogram(
      "tollgate_relay_request_duration_seconds",
      "Duration of settled calls, request to last byte, by endpoint, model and channel",
      ["endpoint", "model", "channel"],
      LATENCY_BUCKETS,
    );
    this.firstByte = this.histogram(
      "tollgate_upstream_first_byte_seconds",
      "Time from the request to the upstream's first response byte, by model and channel",
      ["model", "channel"],
      LATENCY_BUCKETS,
    );
    this.upstreamFailures = this.counter(
      "tollgate_upstream_failures_total",
      "Upstream attempts that failed, by channel and upstream status (0: unreachable or timed out)",
      ["channel", "status"],
    );
    this.tokens = this.counter(
      "tollgate_tokens_billed_total",
      "Tokens billed, by model, channel and kind (prompt, completion)",
      ["model", "channel", "kind"],
    );
    this.quota = this.counter("tollgate_quota_billed_total", "Quota billed, by model and channel", [
      "model",
      "channel",
    ]);
    const flushes = this.histogram(
      "tollgate_billing_flush_seconds",
      "Duration of billing flushes (charges and log rows written in one transaction)",
      [],
      FLUSH_BUCKETS,
    );
    this.flushes = flushes.cell({});
    const gauges: [string, string, () => number | undefined][] = [
      ["reservations_in_flight", "Calls holding a balance reservation", () => sources.book().reservations],
      ["billing_queue_depth", "Settled charges and log rows waiting for a flush", () => sources.book().queued],
      ["billing_journal_bytes", "Bytes of this process's open billing journals", () => sources.book().journalBytes],
      ["token_cache_hits", "Relay key lookups answered from memory, since start", () => sources.tokenCache().hits],
      [
        "token_cache_misses",
        "Relay key lookups that read the database, since start",
        () => sources.tokenCache().misses,
      ],
      ["db_pool_in_use", "Database connections in use (PostgreSQL/MySQL)", () => sources.pool()?.inUse],
      ["db_pool_size", "Most database connections of the pool (PostgreSQL/MySQL)", () => sources.pool()?.size],
    ];
    for (const [name, help, read] of gauges) this.scrapes(new ReadGauge(`tollgate_${name}`, help, read));
  }

  /** A counter read at every scrape from now on. */
  private counter(...args: ConstructorParameters<typeof TalliedCounter>): TalliedCounter {
    return this.scrapes(new TalliedCounter(...args));
  }

  /** A histogram read at every scrape from now on. */
  private histogram(...args: ConstructorParameters<typeof TalliedHistogram>): TalliedHistogram {
    return this.scrapes(new TalliedHistogram(...args));
  }

  /** `metric`, read at every scrape from now on. */
  private scrapes<M extends Scraped>(metric: M): M {
    this.scraped.push(metric);
    return metric;
  }

  settled(call: SettledCall): void {
    const key = `${call.endpoint}\u0000${call.channel}\u0000${call.model}`;
    const cells = this.settledCells.get(key) ?? this.cellsOf(key, call);
    cells.requests.value++;
    cells.duration.observe(call.seconds);
    cells.firstByte.observe(call.firstByteSeconds);
    cells.promptTokens.add(call.promptTokens);
    cells.completionTokens.add(call.completionTokens);
    cells.quota.add(call.quota);
  }

  private cellsOf(key: string, { endpoint, model, channel: id }: SettledCall): SettledCells {
    const channel = String(id);
    const cells = {
      requests: this.requests.cell({ endpoint, model, channel, status: "200" }),
      duration: this.duration.cell({ endpoint, model, channel }),
      firstByte: this.firstByte.cell({ model, channel }),
      promptTokens: this.tokens.cell({ model, channel, kind: "prompt" }),
      completionTokens: this.tokens.cell({ model, channel, kind: "completion" }),
      quota: this.quota.cell({ model, channel }),
    };
    this.settledCells.set(key, cells);
    return cells;
  }

  /** A call answered with an error; `model` and `channel` only when a channel was tried (else unbounded labels). */
  failed(endpoint: string, status: number, model = "", channel = 0): void {
    const code = String(status);
    this.requests.cell({ endpoint, model, channel: String(channel), status: code }).value++;
    this.errors.cell({ endpoint, status: code }).value++;
  }

  upstreamFailed(channel: number, status: number): void {
    this.upstreamFailures.cell({ channel: String(channel), status: String(status) }).value++;
  }

  /** A billing flush took `seconds`. */
  flushed(seconds: number): void {
    this.flushes.observe(seconds);
  }

  /** Every metric in Prometheus's text format, and that format's content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    const registry = await (this.registry ??= this.newRegistry());
    return { text: await registry.metrics(), contentType: registry.contentType };
  }

  private async newRegistry(): Promise<Registry> {
    const { Registry } = await import("prom-client");
    const registry = new Registry();
    for (const metric of this.scraped) registerScraped(registry, metric);
    return registry;
  }
}
