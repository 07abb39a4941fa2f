import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/gateway/app";
import type { ServiceContext } from "../../src/service/context";
import { DIALECTS, TEST_REDIS_URL } from "../support/databases";
import { openTestContext } from "../support/server";
import { failure, startRelayEnv, USER_QUOTA, type RelayEnv } from "./support";

const MODEL = "trl-model";
const SLOW = "fake-slow-400ms";

async function freshUser(r: RelayEnv) {
  const user = await r.s.newUser();
  await r.s.root.put("/api/user/", { id: user.userId, quota: USER_QUOTA });
  return user;
}

const ask = (r: RelayEnv, key: string, extra: Record<string, unknown> = {}, model = MODEL) =>
  r.openai(key).chat.completions.create({ model, messages: [{ role: "user", content: "hi" }], ...extra });

async function prepare(r: RelayEnv) {
  await r.setPrices({ [MODEL]: 1, [SLOW]: 1 });
  await r.addChannel({ models: `${MODEL},${SLOW}` });
}

describe.each(DIALECTS)("requests and tokens per minute, per token and per user, on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await prepare(r);
  });
  afterAll(() => r.stop());

  test("a token's rpm_limit: beyond it, 429 with Retry-After before the upstream is called; shown in the token list and /v1/dashboard/billing/*", async () => {
    const user = await freshUser(r);
    const { key, id } = await r.newKey({ rpm_limit: 2, tpm_limit: 0 }, user);
    await ask(r, key);
    await ask(r, key);
    const seen = r.fake.requests.length;
    const refused = await failure(ask(r, key));
    expect(refused.status).toBe(429);
    expect(refused.message).toContain("the API key's limit of 2 requests per minute is reached");
    expect(Number(refused.headers?.get("retry-after"))).toBeGreaterThan(0);
    expect(r.fake.requests.length).toBe(seen);
    const listed = (await user.get("/api/token/")).body.data.items.find((t: any) => t.id === id);
    expect(listed).toMatchObject({ rpm_limit: 2, tpm_limit: 0 });
    const billing = await fetch(`${r.s.url}/v1/dashboard/billing/subscription`, {
      headers: { authorization: `Bearer ${key}` },
    }).then((reply) => reply.json());
    expect(billing.rate_limits).toEqual({ key: { rpm: 2, tpm: 0 }, user: { rpm: 0, tpm: 0 } });
  });

  test("tokens per minute: a call holds its estimate and settles to its real use, so later calls fit; a call estimated above the limit is refused alone", async () => {
    const user = await freshUser(r);
    // Estimate per call: the 500-token floor of a small prompt + max_tokens 100; real use ≈ 20 tokens.
    const { key } = await r.newKey({ tpm_limit: 1300 }, user);
    for (let i = 0; i < 4; i++) await ask(r, key, { max_tokens: 100 });
    const tooBig = await failure(ask(r, key, { max_tokens: 2000 }));
    expect(tooBig.status).toBe(429);
    expect(tooBig.message).toContain("this request alone is estimated at 2500 tokens");
  });

  test("a burst cannot overshoot the tokens per minute by more than the calls it admits: of 4 concurrent calls estimated at 600 under 1300, 2 pass", async () => {
    const user = await freshUser(r);
    const { key } = await r.newKey({ tpm_limit: 1300 }, user);
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        ask(r, key, { max_tokens: 100 }, SLOW).then(
          () => 200,
          (error) => error.status,
        ),
      ),
    );
    expect(outcomes.filter((s) => s === 200)).toHaveLength(2);
    expect(outcomes.filter((s) => s === 429)).toHaveLength(2);
  });

  test("a user's own rpm_limit (user edit form) covers all their keys; a group default applies to users without their own", async () => {
    const user = await freshUser(r);
    const edit = await r.s.root.put("/api/user/", { id: user.userId, rpm_limit: 1 });
    expect(edit.body.success).toBe(true);
    const first = await r.newKey({}, user);
    const second = await r.newKey({}, user);
    await ask(r, first.key);
    expect((await failure(ask(r, second.key))).message).toContain("the user's limit of 1 requests per minute");

    const other = await freshUser(r);
    const key = (await r.newKey({}, other)).key;
    expect(
      (await r.s.root.put("/api/option/", { key: "TrafficLimitGroup", value: '{"default":[1,0]}' })).body.success,
    ).toBe(true);
    await ask(r, key);
    expect((await failure(ask(r, key))).status).toBe(429);
    await r.s.root.put("/api/option/", { key: "TrafficLimitGroup", value: "{}" });
  });

  test("limits of 0 mean none; negative or non-numeric limits are refused and change nothing", async () => {
    const user = await freshUser(r);
    const { key, id } = await r.newKey({ rpm_limit: 0, tpm_limit: 0 }, user);
    for (let i = 0; i < 3; i++) await ask(r, key);
    for (const [field, value, message] of [
      ["rpm_limit", -1, "rpm_limit must be 0 (no limit) or more"],
      ["tpm_limit", "lots", "tpm_limit must be an integer"],
      ["rpm_limit", 1.5, "rpm_limit must be an integer"],
    ] as const) {
      const created = await user.post("/api/token/", { name: "bad", [field]: value });
      expect(created.body).toEqual({ success: false, message });
      const updated = await user.put("/api/token/", { id, name: "relay", [field]: value });
      expect(updated.body.success).toBe(false);
      const userEdit = await r.s.root.put("/api/user/", { id: user.userId, [field]: value });
      expect(userEdit.body.success).toBe(false);
    }
    const stored = await r.s.ctx.db.k
      .selectFrom("tokens")
      .select(["rpm_limit", "tpm_limit"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ rpm_limit: 0, tpm_limit: 0 });
    const bad = await r.s.root.put("/api/option/", { key: "TrafficLimitGroup", value: '{"default":[-1,5]}' });
    expect(bad.body.success).toBe(false);
  });
});

describe("token rate limits shared by two instances on PostgreSQL + Redis", () => {
  let r: RelayEnv;
  let other: { ctx: ServiceContext; app: ReturnType<typeof createApp> };
  beforeAll(async () => {
    r = await startRelayEnv("postgres", { REDIS_CONN_STRING: TEST_REDIS_URL });
    await prepare(r);
    const ctx = await openTestContext(r.s.database, { REDIS_CONN_STRING: TEST_REDIS_URL });
    other = { ctx, app: createApp(ctx).listen({ port: 0, hostname: "127.0.0.1" }) };
  });
  afterAll(async () => {
    await other.app.stop(true);
    await other.ctx.close();
    await r.stop();
  });

  test("a key's 2 requests per minute hold across instances", async () => {
    const { key } = await r.newKey({ rpm_limit: 2 });
    const elsewhere = r.openai(key, { baseURL: `http://127.0.0.1:${other.app.server!.port}/v1` });
    await ask(r, key);
    await elsewhere.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] });
    expect((await failure(ask(r, key))).status).toBe(429);
    const there = await failure(
      elsewhere.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
    );
    expect(there.status).toBe(429);
  });
});
