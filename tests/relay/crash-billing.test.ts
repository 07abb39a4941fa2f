import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { relayThrough, SERVE_MODEL, useServeFixture } from "../support/serve-process";
import { processState, untilZombie } from "../support/unreaped";

const f = useServeFixture("tollgate-crash-");
const WORKERS = 16;

/** One chat call; its request id when the client got a complete 200 answer (the whole JSON, or a stream to [DONE]). */
async function confirmedCall(url: string, key: string, stream: boolean): Promise<string | undefined> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: SERVE_MODEL, stream, messages: [{ role: "user", content: "hi" }] }),
  });
  const text = await response.text();
  if (response.status !== 200) return undefined;
  if (stream ? !text.includes("data: [DONE]") : !JSON.parse(text).usage) return undefined;
  return response.headers.get("x-tollgate-request-id") ?? undefined;
}

/** Calls from `WORKERS` clients until the server stops answering; the request ids of the confirmed ones. */
async function callUntilGone(url: string, key: string): Promise<string[]> {
  const confirmed: string[] = [];
  const worker = async (n: number) => {
    for (let i = 0; ; i++) {
      const id = await confirmedCall(url, key, (n + i) % 2 === 0).catch(() => undefined);
      if (!id) return;
      confirmed.push(id);
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
  return confirmed;
}

function stored(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  const logs = db.query("SELECT request_id, quota FROM logs WHERE type = 2").all() as {
    request_id: string;
    quota: number;
  }[];
  const root = db
    .query("SELECT quota, used_quota, request_count, leased_quota FROM users WHERE username = 'root'")
    .get() as {
    quota: number;
    used_quota: number;
    request_count: number;
    leased_quota: number;
  };
  const leases = (db.query("SELECT COUNT(*) AS n FROM quota_leases").get() as { n: number }).n;
  db.close();
  return { logs, root, leases };
}

describe("a crashed writer's journal is billed", () => {
  test("after a kill -9 under load, its pid still taken by an unreaped zombie, the next start bills every call whose client got a complete answer and frees its leases", async () => {
    // Nothing is flushed by the timer: every charge of the load is in the journal only.
    const first = await f.start({ BILLING_FLUSH_MS: "600000" }, true);
    const { key } = await relayThrough(first.url, f.fake.url, 0);
    const before = stored(f.dbPath).root;
    const load = callUntilGone(first.url, key);
    await Bun.sleep(1500);
    process.kill(first.pid, "SIGKILL");
    const confirmed = await load;
    await untilZombie(first.pid);
    expect(confirmed.length).toBeGreaterThan(WORKERS);

    await f.start();
    expect(processState(first.pid)).toBe("Z");
    const { logs, root, leases } = stored(f.dbPath);
    const billed = new Set(logs.map((log) => log.request_id));
    expect(confirmed.filter((id) => !billed.has(id))).toEqual([]);
    const sum = logs.reduce((total, log) => total + log.quota, 0);
    expect(root.request_count).toBe(logs.length);
    expect(root.used_quota).toBe(sum);
    expect(before.quota - root.quota).toBe(sum);
    // With its journal written, what the dead process had leased is free again at once.
    expect(root.leased_quota).toBe(0);
    expect(leases).toBe(0);
    expect(readdirSync(join(f.dir, "billing-journal")).filter((name) => name.includes(".jnl"))).toEqual([]);
  }, 60_000);
});
