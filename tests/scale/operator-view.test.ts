import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import type { Kysely } from "kysely";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { chatCalls, relayThrough, SERVE_MODEL } from "../support/serve-process";
import { startTestServer, type TestServer } from "../support/server";

const TOKEN = "metrics-token-for-the-scraper";

const get = (server: TestServer, path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers });

describe("GET /metrics, /healthz and /readyz on PostgreSQL", () => {
  let server: TestServer;
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = startFakeUpstream();
    server = await startTestServer("postgres", { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await fake.stop();
    await server.stop();
  });

  test("/healthz answers while the process runs; /readyz names the database, migrations and Redis", async () => {
    expect(await (await get(server, "/healthz")).json()).toEqual({ status: "ok" });
    const ready = await get(server, "/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, database: true, migrations: true, redis: null, draining: false });
  });

  test("/metrics is refused without the token or with a wrong one, in the API's envelope", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer wrong" }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const reply = await get(server, "/metrics", headers);
      expect(reply.status).toBe(401);
      expect(await reply.json()).toEqual({
        success: false,
        message: "a valid METRICS_TOKEN bearer token is required",
      });
    }
  });

  test("/metrics counts calls by endpoint, model, channel and status, with tokens, quota and the book's state", async () => {
    const { client } = await relayThrough(server.url, fake.url, 3);
    await chatCalls(client, 1); // its key is now cached
    const channel = (await server.ctx.db.k.selectFrom("channels").select("id").executeTakeFirstOrThrow()).id;
    await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-unknown", "content-type": "application/json" },
      body: JSON.stringify({ model: SERVE_MODEL, messages: [{ role: "user", content: "hi" }] }),
    });
    await server.ctx.relay.book.flush();
    const reply = await get(server, "/metrics", { authorization: `Bearer ${TOKEN}` });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toStartWith("text/plain");
    const text = await reply.text();
    const labels = `endpoint="chat",model="${SERVE_MODEL}",channel="${channel}"`;
    expect(text).toContain(`tollgate_relay_requests_total{${labels},status="200"} 4`);
    expect(text).toContain(`tollgate_relay_request_duration_seconds_count{${labels}} 4`);
    expect(text).toContain(`tollgate_upstream_first_byte_seconds_count{model="${SERVE_MODEL}",channel="${channel}"} 4`);
    expect(text).toContain('tollgate_relay_errors_total{endpoint="chat",status="401"} 1');
    const logs = await server.ctx.db.k
      .selectFrom("logs")
      .select(["quota", "prompt_tokens", "completion_tokens"])
      .where("type", "=", 2)
      .execute();
    const sum = (pick: (r: (typeof logs)[number]) => number) => logs.reduce((a, r) => a + pick(r), 0);
    expect(text).toContain(
      `tollgate_quota_billed_total{model="${SERVE_MODEL}",channel="${channel}"} ${sum((r) => r.quota)}`,
    );
    expect(text).toContain(
      `tollgate_tokens_billed_total{model="${SERVE_MODEL}",channel="${channel}",kind="completion"} ${sum((r) => r.completion_tokens)}`,
    );
    expect(text).toContain("tollgate_reservations_in_flight 0");
    expect(text).toContain("tollgate_billing_queue_depth 0");
    expect(text).toMatch(/tollgate_billing_flush_seconds_count [1-9]/);
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);
    // Every call looked its key up once (a hit, or a miss when its entry had aged out on a slow machine).
    expect(gauge("tollgate_token_cache_hits") + gauge("tollgate_token_cache_misses")).toBeGreaterThanOrEqual(4);
    expect(text).toContain("tollgate_db_pool_size 5");
    expect(gauge("tollgate_db_pool_in_use")).toBeLessThanOrEqual(5);
  });

  test("/readyz answers 503 once the instance is stopping (draining), so a load balancer sends it nothing new", async () => {
    server.ctx.lifecycle.draining = true;
    const draining = await get(server, "/readyz");
    server.ctx.lifecycle.draining = false;
    expect(draining.status).toBe(503);
    expect(await draining.json()).toMatchObject({ ready: false, database: true, draining: true });
    expect((await get(server, "/healthz")).status).toBe(200);
  });

  test("/readyz answers 503 when a migration is missing, and again 200 once it is back", async () => {
    const k = server.ctx.db.k as unknown as Kysely<{ kysely_migration: { name: string; timestamp: string } }>;
    const row = await k.selectFrom("kysely_migration").selectAll().orderBy("name", "desc").executeTakeFirstOrThrow();
    await k.deleteFrom("kysely_migration").where("name", "=", row.name).execute();
    const missing = await get(server, "/readyz");
    expect(missing.status).toBe(503);
    expect(await missing.json()).toMatchObject({ ready: false, database: true, migrations: false });
    await k.insertInto("kysely_migration").values(row).execute();
    expect((await get(server, "/readyz")).status).toBe(200);
  });
});

describe("/metrics access settings", () => {
  test("neither METRICS_TOKEN nor METRICS_ALLOW: /metrics does not exist", async () => {
    const server = await startTestServer("sqlite");
    const reply = await get(server, "/metrics");
    expect(reply.status).toBe(404);
    await server.stop();
  });

  test("METRICS_ALLOW lets a listed address read without the token, and not another", async () => {
    const listed = await startTestServer("sqlite", { METRICS_ALLOW: "127.0.0.0/8" });
    expect((await get(listed, "/metrics")).status).toBe(200);
    await listed.stop();
    const other = await startTestServer("sqlite", { METRICS_ALLOW: "10.0.0.0/8", METRICS_TOKEN: TOKEN });
    expect((await get(other, "/metrics")).status).toBe(401);
    expect((await get(other, "/metrics", { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    await other.stop();
  });
});

describe("/readyz when the database is gone", () => {
  test("answers 503 with database false, within its bound", async () => {
    const server = await startTestServer("postgres");
    const name = new URL(server.database.dsn).pathname.slice(1);
    const admin = new SQL({ url: server.database.dsn.replace(`/${name}`, "/postgres"), max: 1 });
    await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.close();
    const reply = await get(server, "/readyz");
    expect(reply.status).toBe(503);
    expect(await reply.json()).toMatchObject({ ready: false, database: false });
    await server.stop().catch(() => {});
  });
});
