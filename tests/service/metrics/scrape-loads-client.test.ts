import { expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../../..");

/**
 * In a process of its own (this one has prom-client loaded by other tests): the server's modules, then the relay's
 * metrics counting and scraped. Prints how many of prom-client's modules were loaded at each step, then the text.
 */
const SCRIPT = `
const loaded = () => Object.keys(require.cache).filter((path) => path.includes("/node_modules/prom-client/")).length;
await import(${JSON.stringify(join(ROOT, "src/server/serve.ts"))});
const { RelayMetrics } = await import(${JSON.stringify(join(ROOT, "src/service/metrics/relay-metrics.ts"))});
const metrics = new RelayMetrics({
  book: () => ({ reservations: 2, queued: 3, journalBytes: 4 }),
  tokenCache: () => ({ hits: 5, misses: 6 }),
  pool: () => undefined,
});
metrics.settled({ endpoint: "chat", model: "m", channel: 7, seconds: 0.2, firstByteSeconds: 0.05, promptTokens: 10, completionTokens: 20, quota: 30 });
metrics.failed("chat", 429, "m", 7);
metrics.upstreamFailed(7, 503);
metrics.flushed(0.003);
const counting = loaded();
const { text, contentType } = await metrics.scrape();
console.log(JSON.stringify({ serving: counting, scraped: loaded(), contentType, text }));
`;

test("a server loads no Prometheus client until /metrics is first scraped, and then writes every metric", () => {
  const run = Bun.spawnSync(["bun", "-e", SCRIPT], { cwd: ROOT, stderr: "pipe" });
  expect(run.stderr.toString()).toBe("");
  const { serving, scraped, contentType, text } = JSON.parse(run.stdout.toString());
  expect(serving).toBe(0);
  expect(scraped).toBeGreaterThan(0);
  expect(contentType).toStartWith("text/plain");
  for (const line of [
    'tollgate_relay_requests_total{endpoint="chat",model="m",channel="7",status="200"} 1',
    'tollgate_relay_requests_total{endpoint="chat",model="m",channel="7",status="429"} 1',
    'tollgate_relay_errors_total{endpoint="chat",status="429"} 1',
    'tollgate_upstream_failures_total{channel="7",status="503"} 1',
    'tollgate_tokens_billed_total{model="m",channel="7",kind="completion"} 20',
    'tollgate_quota_billed_total{model="m",channel="7"} 30',
    'tollgate_relay_request_duration_seconds_bucket{endpoint="chat",model="m",channel="7",le="0.25"} 1',
    'tollgate_upstream_first_byte_seconds_count{model="m",channel="7"} 1',
    'tollgate_billing_flush_seconds_bucket{le="0.005"} 1',
    "tollgate_billing_flush_seconds_count 1",
    "tollgate_reservations_in_flight 2",
    "tollgate_billing_queue_depth 3",
    "tollgate_billing_journal_bytes 4",
    "tollgate_token_cache_hits 5",
    "tollgate_token_cache_misses 6",
    "tollgate_db_pool_size 0",
    "# TYPE tollgate_db_pool_in_use gauge",
  ])
    expect(text).toContain(line);
});
