import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/gateway/app";
import type { ServiceContext } from "../../src/service/context";
import { TEST_REDIS_URL } from "../support/databases";
import { openTestContext } from "../support/server";
import { failure, startRelayEnv, USER_QUOTA, type RelayEnv } from "./support";

const MODEL = "mrl-model";
const FAILING = "fake-error-500";

async function setOptions(r: RelayEnv, options: Record<string, unknown>) {
  for (const [key, value] of Object.entries(options)) {
    const reply = await r.s.root.put("/api/option/", { key, value });
    if (!reply.body.success) throw new Error(`${key}: ${reply.body.message}`);
  }
}

/** A fresh user (limits are per user) with a balance and a key. */
async function freshKey(r: RelayEnv): Promise<string> {
  const user = await r.s.newUser();
  await r.s.root.put("/api/user/", { id: user.userId, quota: USER_QUOTA });
  return (await r.newKey({}, user)).key;
}

const ask = (r: RelayEnv, key: string, model = MODEL) =>
  r.openai(key).chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });

async function prepare(r: RelayEnv) {
  await r.setPrices({ [MODEL]: 1, [FAILING]: 1 });
  await r.addChannel({ models: `${MODEL},${FAILING}` });
}

describe("per-user model request limit (compat §10), counted in memory", () => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv("sqlite");
    await prepare(r);
  });
  afterAll(() => r.stop());

  test("off (the default): every call goes through", async () => {
    await setOptions(r, { ModelRequestRateLimitSuccessCount: 1 });
    const key = await freshKey(r);
    for (let i = 0; i < 3; i++) await ask(r, key);
  });

  test("2 successful requests per minute: the third is refused with 429, Retry-After and the documented message; the upstream never sees it", async () => {
    await setOptions(r, { ModelRequestRateLimitEnabled: true, ModelRequestRateLimitSuccessCount: 2 });
    const key = await freshKey(r);
    await ask(r, key);
    await ask(r, key);
    const seen = r.fake.requests.length;
    const refused = await failure(ask(r, key));
    expect(refused.status).toBe(429);
    expect(refused.message).toContain("you have reached the request limit: at most 2 successful requests in 1 minutes");
    expect(Number(refused.headers?.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers?.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(r.fake.requests.length).toBe(seen);
    // Another user has a window of their own.
    await ask(r, await freshKey(r));
  });

  test("the total cap counts failed requests too", async () => {
    await setOptions(r, { ModelRequestRateLimitCount: 3, ModelRequestRateLimitSuccessCount: 1000 });
    const key = await freshKey(r);
    expect((await failure(ask(r, key, FAILING))).status).toBe(500);
    expect((await failure(ask(r, key, FAILING))).status).toBe(500);
    await ask(r, key);
    const refused = await failure(ask(r, key));
    expect(refused.status).toBe(429);
    expect(refused.message).toContain("at most 3 requests in 1 minutes, failed ones included");
    await setOptions(r, { ModelRequestRateLimitCount: 0 });
  });

  test("a group listed in ModelRequestRateLimitGroup uses its own pair instead", async () => {
    await setOptions(r, { ModelRequestRateLimitSuccessCount: 1000, ModelRequestRateLimitGroup: '{"default":[0,1]}' });
    const key = await freshKey(r);
    await ask(r, key);
    expect((await failure(ask(r, key))).status).toBe(429);
    await setOptions(r, { ModelRequestRateLimitGroup: "{}" });
  });

  test("the limit holds on the Anthropic Messages entry too (@anthropic-ai/sdk sees a rate-limit error)", async () => {
    await setOptions(r, { ModelRequestRateLimitSuccessCount: 1 });
    const key = await freshKey(r);
    const claude = new Anthropic({ apiKey: key, baseURL: r.s.url, maxRetries: 0 });
    const call = () =>
      claude.messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: "user", content: "hi" }] });
    await call();
    const refused = await call().catch((error) => error);
    expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    await setOptions(r, { ModelRequestRateLimitSuccessCount: 1000 });
  });

  test("limits of 0, negative or not numbers, and a malformed group map, are refused and change nothing", async () => {
    const before = r.s.ctx.options.raw("ModelRequestRateLimitSuccessCount");
    for (const [key, value] of [
      ["ModelRequestRateLimitSuccessCount", 0],
      ["ModelRequestRateLimitSuccessCount", -5],
      ["ModelRequestRateLimitCount", -1],
      ["ModelRequestRateLimitCount", "ten"],
      ["ModelRequestRateLimitDurationMinutes", 0],
      ["ModelRequestRateLimitGroup", '{"vip":[1]}'],
      ["ModelRequestRateLimitGroup", '{"vip":[-1,2]}'],
      ["ModelRequestRateLimitGroup", "{not json"],
    ] as const) {
      const reply = await r.s.root.put("/api/option/", { key, value });
      expect({ key, value, success: reply.body.success }).toEqual({ key, value, success: false });
      expect(reply.body.message).toBeTruthy();
    }
    expect(r.s.ctx.options.raw("ModelRequestRateLimitSuccessCount")).toBe(before);
    expect(r.s.ctx.options.raw("ModelRequestRateLimitGroup")).toBe("{}");
  });
});

describe("per-user model request limit shared by two instances on PostgreSQL + Redis", () => {
  let r: RelayEnv;
  let other: { ctx: ServiceContext; app: ReturnType<typeof createApp> };
  beforeAll(async () => {
    r = await startRelayEnv("postgres", { REDIS_CONN_STRING: TEST_REDIS_URL });
    await prepare(r);
    other = { ctx: await openTestContext(r.s.database, { REDIS_CONN_STRING: TEST_REDIS_URL }), app: undefined! };
    other.app = createApp(other.ctx).listen({ port: 0, hostname: "127.0.0.1" });
  });
  afterAll(async () => {
    await other.app.stop(true);
    await other.ctx.close();
    await r.stop();
  });

  test("3 successful requests per minute in all: calls on either instance count against the same window", async () => {
    await setOptions(r, { ModelRequestRateLimitEnabled: true, ModelRequestRateLimitSuccessCount: 3 });
    const key = await freshKey(r);
    const elsewhere = r.openai(key, { baseURL: `http://127.0.0.1:${other.app.server!.port}/v1` });
    const askThere = () =>
      elsewhere.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] });
    await waitForOption(other.ctx, 3);
    await ask(r, key);
    await askThere();
    await ask(r, key);
    expect((await failure(askThere())).status).toBe(429);
    expect((await failure(ask(r, key))).status).toBe(429);
  });
});

async function waitForOption(ctx: ServiceContext, success: number) {
  for (let i = 0; i < 250 && ctx.options.num("ModelRequestRateLimitSuccessCount") !== success; i++) await Bun.sleep(20);
}
