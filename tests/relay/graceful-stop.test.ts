import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CONTENT } from "../support/fake-upstream";
import { chatCalls, relayThrough, SERVE_MODEL, useServeFixture } from "../support/serve-process";

const CALLS = 20;

const f = useServeFixture("tollgate-stop-");
const dbPath = () => f.dbPath;

/** A real `serve` process on the test's SQLite file; charges are flushed only at stop (BILLING_FLUSH_MS is 10 min). */
const startServer = () => f.start({ BILLING_FLUSH_MS: "600000" });

const makeCalls = (url: string) => relayThrough(url, f.fake.url, CALLS);

/** What the database holds: consume rows, their quota, and root's counters. */
function stored() {
  const db = new Database(dbPath(), { readonly: true });
  const logs = db.query("SELECT count(*) AS n, coalesce(sum(quota), 0) AS q FROM logs WHERE type = 2").get() as {
    n: number;
    q: number;
  };
  const root = db.query("SELECT quota, used_quota, request_count FROM users WHERE username = 'root'").get() as {
    quota: number;
    used_quota: number;
    request_count: number;
  };
  db.close();
  return { logs, root };
}

/** Starts a streamed chat call; answers its response once the first bytes are in. */
async function startStream(url: string, key: string, signal?: AbortSignal) {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: SERVE_MODEL, stream: true, messages: [{ role: "user", content: "hi" }] }),
    signal,
  });
  const reader = response.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  return { response, reader, first };
}

const journals = () => readdirSync(join(f.dir, "billing-journal")).filter((name) => name.endsWith(".jnl"));

describe("stopping the gateway loses no charge", () => {
  test("SIGTERM writes every pending charge and log row before the process exits", async () => {
    const server = await startServer();
    await makeCalls(server.url);
    server.process.kill("SIGTERM");
    expect(await server.process.exited).toBe(0);
    const { logs, root } = stored();
    expect(logs.n).toBe(CALLS);
    expect(root.request_count).toBe(CALLS);
    expect(root.used_quota).toBe(logs.q);
    expect(journals()).toEqual([]);
  }, 30_000);

  test("after a kill -9 the next start writes the settled charges from the journal, once", async () => {
    const first = await startServer();
    const { client, key } = await makeCalls(first.url);
    // The billing usage route writes what is queued: these calls reach the database before the kill.
    await fetch(`${first.url}/dashboard/billing/usage`, { headers: { authorization: `Bearer ${key}` } });
    const flushed = stored();
    expect(flushed.logs.n).toBe(CALLS);
    await chatCalls(client, 5);
    first.process.kill("SIGKILL");
    await first.process.exited;
    expect(stored().logs.n).toBe(CALLS);
    expect(journals()).toHaveLength(1);

    const second = await startServer();
    const { logs, root } = stored();
    expect(logs.n).toBe(CALLS + 5);
    expect(root.request_count).toBe(CALLS + 5);
    expect(root.used_quota).toBe(logs.q);
    expect(flushed.root.quota - root.quota).toBe(logs.q - flushed.logs.q);
    expect(journals()).toEqual([]);

    second.process.kill("SIGKILL");
    await second.process.exited;
    await startServer();
    expect(stored().logs.n).toBe(CALLS + 5);
    expect(stored().root.request_count).toBe(CALLS + 5);
  }, 30_000);

  test("a call in flight when SIGTERM arrives is delivered whole and billed", async () => {
    const server = await startServer();
    const { key } = await relayThrough(server.url, f.fake.url, 0);
    f.fake.queueBehavior({ chunkDelayMs: 300 });
    const { reader, first } = await startStream(server.url, key);
    server.process.kill("SIGTERM");
    let text = first;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      text += new TextDecoder().decode(chunk.value);
    expect(text).toContain("data: [DONE]");
    expect(await server.process.exited).toBe(0);
    expect(stored().logs.n).toBe(1);
    expect(stored().root.request_count).toBe(1);
  }, 30_000);

  test("a stream whose client has left is still read to its end and billed when SIGTERM arrives meanwhile", async () => {
    const server = await startServer();
    const { key } = await relayThrough(server.url, f.fake.url, 0);
    f.fake.queueBehavior({ chunkDelayMs: 300 });
    const abort = new AbortController();
    await startStream(server.url, key, abort.signal);
    abort.abort();
    server.process.kill("SIGTERM");
    expect(await server.process.exited).toBe(0);
    // Served upstream to its usage report (the relay stops reading there), though no longer delivered.
    expect(f.fake.requests.at(-1)!.sentText).toBe(DEFAULT_CONTENT);
    const { logs, root } = stored();
    expect(logs.n).toBe(1);
    expect(root.request_count).toBe(1);
    expect(root.used_quota).toBe(logs.q);
  }, 30_000);

  test("a stream that stalls holds the stop no longer than SHUTDOWN_TIMEOUT", async () => {
    const server = await f.start({ BILLING_FLUSH_MS: "600000", SHUTDOWN_TIMEOUT: "1" });
    const { key } = await relayThrough(server.url, f.fake.url, 0);
    f.fake.queueBehavior({ stallAfterChunks: 1 });
    const { reader } = await startStream(server.url, key);
    server.process.kill("SIGTERM");
    const exited = await Promise.race([server.process.exited, Bun.sleep(15_000).then(() => "still running")]);
    expect(exited).toBe(0);
    await reader.cancel().catch(() => {});
  }, 30_000);
});
