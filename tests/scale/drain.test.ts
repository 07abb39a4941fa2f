import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { answers, spawnInstance } from "../support/instances";
import { relayThrough, SERVE_MODEL } from "../support/serve-process";

/** Starts a streamed chat call; answers its reader once the first bytes are in. */
async function startStream(url: string, key: string) {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: SERVE_MODEL, stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  const reader = response.body!.getReader();
  return { reader, first: new TextDecoder().decode((await reader.read()).value) };
}

describe.each(["postgres", "mysql"] as const)("SIGTERM during streams on %s", (dialect) => {
  let database: TestDatabase;
  let fake: FakeUpstream;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    fake = startFakeUpstream();
  });
  afterAll(async () => {
    await fake.stop();
    await database.drop();
  });

  test("the streams in flight finish, are billed with their log rows, and the process exits 0", async () => {
    const instance = spawnInstance({ SQL_DSN: database.dsn, BILLING_FLUSH_MS: "600000" });
    expect(await answers(instance)).toBe(true);
    const { key } = await relayThrough(instance.url, fake.url, 0);
    fake.queueBehavior({ chunkDelayMs: 300 });
    fake.queueBehavior({ chunkDelayMs: 300 });
    const streams = await Promise.all([startStream(instance.url, key), startStream(instance.url, key)]);
    instance.process.kill("SIGTERM");
    for (const { reader, first } of streams) {
      let text = first;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        text += new TextDecoder().decode(chunk.value);
      expect(text).toContain("data: [DONE]");
    }
    expect(await instance.exited).toBe(0);
    const sql = new SQL({ url: database.dsn, max: 1 });
    const [logs] = await sql.unsafe("SELECT count(*) AS n, sum(quota) AS q FROM logs WHERE type = 2");
    const [root] = await sql.unsafe("SELECT used_quota, request_count FROM users WHERE username = 'root'");
    await sql.close();
    expect(Number(logs.n)).toBe(2);
    expect(Number(root.request_count)).toBe(2);
    expect(Number(root.used_quota)).toBe(Number(logs.q));
  }, 60_000);
});
