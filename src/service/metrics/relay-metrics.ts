import { Counter, Gauge, Histogram, Registry } from "prom-client";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

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

/**
 * The relay's Prometheus metrics. Counters and histograms are updated where a call ends (a few label lookups
 * per call); gauges are read only when /metrics is scraped.
 */
export class RelayMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"endpoint" | "model" | "channel" | "status">;
  private readonly errors: Counter<"endpoint" | "status">;
  private readonly duration: Histogram<"endpoint" | "model" | "channel">;
  private readonly firstByte: Histogram<"model" | "channel">;
  private readonly tokens: Counter<"model" | "channel" | "kind">;
  private readonly quota: Counter<"model" | "channel">;
  readonly flushes: Histogram;
  private readonly upstreamFailures: Counter<"channel" | "status">;

  constructor(sources: GaugeSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: "tollgate_relay_requests_total",
      help: "Relayed calls by endpoint, model, channel and HTTP status (failures refused before a channel: channel 0)",
      labelNames: ["endpoint", "model", "channel", "status"],
      registers,
    });
    this.errors = new Counter({
      name: "tollgate_relay_errors_total",
      help: "Relayed calls answered with an error, by endpoint and HTTP status",
      labelNames: ["endpoint", "status"],
      registers,
    });
    this.duration = new Histogram({
      name: "tollgate_relay_request_duration_seconds",
      help: "Duration of settled calls, request to last byte, by endpoint, model and channel",
      labelNames: ["endpoint", "model", "channel"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.firstByte = new Histogram({
      name: "tollgate_upstream_first_byte_seconds",
      help: "Time from the request to the upstream's first response byte, by model and channel",
      labelNames: ["model", "channel"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.upstreamFailures = new Counter({
      name: "tollgate_upstream_failures_total",
      help: "Upstream attempts that failed, by channel and upstream status (0: unreachable or timed out)",
      labelNames: ["channel", "status"],
      registers,
    });
    this.tokens = new Counter({
      name: "tollgate_tokens_billed_total",
      help: "Tokens billed, by model, channel and kind (prompt, completion)",
      labelNames: ["model", "channel", "kind"],
      registers,
    });
    this.quota = new Counter({
      name: "tollgate_quota_billed_total",
      help: "Quota billed, by model and channel",
      labelNames: ["model", "channel"],
      registers,
    });
    this.flushes = new Histogram({
      name: "tollgate_billing_flush_seconds",
      help: "Duration of billing flushes (charges and log rows written in one transaction)",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
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
    for (const [name, help, read] of gauges)
      new Gauge({
        name: `tollgate_${name}`,
        help,
        registers,
        collect() {
          const value = read();
          if (value !== undefined) this.set(value);
        },
      });
  }

  settled(call: SettledCall): void {
    const channel = String(call.channel);
    this.requests.inc({ endpoint: call.endpoint, model: call.model, channel, status: "200" });
    this.duration.observe({ endpoint: call.endpoint, model: call.model, channel }, call.seconds);
    this.firstByte.observe({ model: call.model, channel }, call.firstByteSeconds);
    this.tokens.inc({ model: call.model, channel, kind: "prompt" }, call.promptTokens);
    this.tokens.inc({ model: call.model, channel, kind: "completion" }, call.completionTokens);
    this.quota.inc({ model: call.model, channel }, call.quota);
  }

  /** A call answered with an error; `model` and `channel` only when a channel was tried (else unbounded labels). */
  failed(endpoint: string, status: number, model = "", channel = 0): void {
    const code = String(status);
    this.requests.inc({ endpoint, model, channel: String(channel), status: code });
    this.errors.inc({ endpoint, status: code });
  }

  upstreamFailed(channel: number, status: number): void {
    this.upstreamFailures.inc({ channel: String(channel), status: String(status) });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
