import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { DEFAULT_PROMPT_TOKENS } from "../support/fake-upstream";
import { expectedQuota, postStream, startRelayEnv, waitFor, type RelayEnv } from "./support";

const CONTENT = "one two three four five six seven eight";
const WORDS = CONTENT.split(" ").length;

describe.each(DIALECTS)("streaming and billing on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect, { STREAMING_TIMEOUT: "1" });
    r.fake.setBehavior({ content: CONTENT });
    await r.setPrices(
      { "fake-drip-150ms": 1, "fake-no-usage": 1, "fake-drip-100ms": 1, "fake-stall-2": 1, small: 1 },
      { "fake-drip-100ms": 2 },
    );
    await r.addChannel({ models: "fake-drip-150ms,fake-no-usage,fake-drip-100ms,fake-stall-2,small" });
  });
  afterAll(() => r.stop());

  test("the first chunk reaches the client before the upstream finishes", async () => {
    const started = Date.now();
    const response = await postStream(r, "fake-drip-150ms");
    const reader = response.body!.getReader();
    await reader.read();
    const firstChunkMs = Date.now() - started;
    const upstream = r.fake.requests.at(-1)!;
    expect(upstream.finished).toBe(false);
    while (!(await reader.read()).done) {}
    expect(Date.now() - started).toBeGreaterThan(firstChunkMs + 150 * (WORDS - 2));
  });

  test("a stream the upstream has already sent whole is answered as one finished body, usage chunk stripped, billed from its usage", async () => {
    const response = await postStream(r, "small");
    const text = await response.text();
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    const events = text.split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    expect(events.some((e) => e.includes('"choices":[]'))).toBe(false);
    expect(
      events
        .slice(0, -1)
        .map((e) => JSON.parse(e.slice(6)).choices[0]?.delta?.content ?? "")
        .join(""),
    ).toBe(CONTENT);
    const log = (await r.consumeLogs()).at(-1);
    expect(JSON.parse(log.other).usage_source).toBe("upstream");
    expect(log.is_stream).toBe(1);
    expect(log.completion_tokens).toBe(WORDS);
  });

  test("without usage from the upstream the delivered text is counted with the tokenizer and marked estimated", async () => {
    const response = await postStream(r, "fake-no-usage");
    const text = await response.text();
    expect(text).toContain("data: [DONE]");
    const log = (await r.consumeLogs()).at(-1);
    expect(JSON.parse(log.other).usage_source).toBe("estimated");
    expect(log.completion_tokens).toBe(WORDS);
    expect(log.content).toContain("counted by the gateway");
  });

  test("a client that asked for usage gets a computed usage chunk when the upstream sent none", async () => {
    const response = await postStream(r, "fake-no-usage", { stream_options: { include_usage: true } });
    const text = await response.text();
    const usageLine = text.split("\n\n").find((e) => e.includes('"usage"') && e.includes('"choices":[]'));
    expect(usageLine).toBeDefined();
    expect(JSON.parse(usageLine!.slice(6)).usage.completion_tokens).toBe(WORDS);
  });

  test("a client that disconnects mid-stream pays for what the upstream generated", async () => {
    const before = await r.userRow();
    const logsBefore = (await r.consumeLogs()).length;
    const abort = new AbortController();
    const response = await postStream(r, "fake-drip-100ms", {}, abort.signal);
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    const upstream = r.fake.requests.at(-1)!;
    await upstream.ended;
    expect(upstream.sentText).toBe(CONTENT);
    await waitFor(async () => (await r.consumeLogs()).length > logsBefore);
    const log = (await r.consumeLogs()).at(-1);
    expect(log.completion_tokens).toBe(WORDS);
    expect(JSON.parse(log.other).stream_status.end_reason).toBe("client_gone");
    const quota = expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ratio: 1, completionRatio: 2 });
    expect(log.quota).toBe(quota);
    expect(before.quota - (await r.userRow()).quota).toBe(quota);
  });

  test("a stream that goes quiet longer than STREAMING_TIMEOUT ends and is billed for what came", async () => {
    const response = await postStream(r, "fake-stall-2");
    const text = await response.text();
    expect(text).not.toContain("[DONE]");
    const log = (await r.consumeLogs()).at(-1);
    expect(JSON.parse(log.other).stream_status.end_reason).toBe("timeout");
    expect(log.completion_tokens).toBe(2);
  });

  test("50 concurrent calls against a small balance: logged quota equals the balance decrease, never below zero", async () => {
    const poor = await r.s.newUser();
    const each = expectedQuota({ prompt: DEFAULT_PROMPT_TOKENS, completion: WORDS, ratio: 1 });
    const start = 2000;
    await r.s.root.put("/api/user/", { id: poor.userId, quota: start });
    const { key } = await r.newKey({ unlimited_quota: true }, poor);
    const client = r.openai(key);
    const results = await Promise.allSettled(
      Array.from(
        { length: 50 },
        async () =>
          await client.chat.completions.create({
            model: "small",
            messages: [{ role: "user", content: "hi" }],
            max_tokens: 8,
          }),
      ),
    );
    const ok = results.filter((x) => x.status === "fulfilled").length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(50);
    const after = await r.userRow(poor.userId);
    expect(after.quota).toBeGreaterThanOrEqual(0);
    const logs = (await r.consumeLogs()).filter((l) => l.user_id === poor.userId);
    expect(logs).toHaveLength(ok);
    expect(logs.reduce((sum, l) => sum + l.quota, 0)).toBe(start - after.quota);
    expect(logs.every((l) => l.quota === each)).toBe(true);
    const refused = results
      .filter((x) => x.status === "rejected")
      .map((x) => (x as PromiseRejectedResult).reason.status);
    expect(new Set(refused)).toEqual(new Set([403]));
  });
});
