import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { DEFAULT_CONTENT, startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { startRelayEnv, TOKEN_QUOTA, type RelayEnv } from "./support";

describe.each(DIALECTS)("playground, auto group and billing endpoints on %s", (dialect) => {
  let r: RelayEnv;
  let vipUpstream: FakeUpstream;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    vipUpstream = startFakeUpstream();
    await r.setPrices({ "pg-model": 1, "vip-only": 1 });
    await r.addChannel({ models: "pg-model" });
    await r.addChannel({ models: "vip-only,pg-model", group: "vip" }, vipUpstream);
  });
  afterAll(async () => {
    await r.stop();
    await vipUpstream.stop();
  });

  test("POST /pg/chat/completions streams for a signed-in user, without a token", async () => {
    const before = await r.userRow();
    const reply = await r.user.request("POST", "/pg/chat/completions", {
      model: "pg-model",
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain("data: [DONE]");
    const log = (await r.consumeLogs()).at(-1);
    expect(log).toMatchObject({ token_name: "playground", token_id: 0, model_name: "pg-model" });
    expect(before.quota - (await r.userRow()).quota).toBe(log.quota);
  });

  test("the playground may pick another usable group, and is refused a group the user may not use", async () => {
    const vip = await r.user.request("POST", "/pg/chat/completions", {
      model: "vip-only",
      group: "vip",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(vip.status).toBe(200);
    expect(vip.body.choices[0].message.content).toBe(DEFAULT_CONTENT);
    const svip = await r.user.request("POST", "/pg/chat/completions", {
      model: "vip-only",
      group: "svip",
      messages: [],
    });
    expect(svip.status).toBe(403);
    expect(svip.body.error.message).toContain("group svip");
  });

  test("the playground needs a session", async () => {
    const anonymous = await r.s.client().request("POST", "/pg/chat/completions", { model: "pg-model", messages: [] });
    expect(anonymous.status).toBe(401);
  });

  test("the auto group walks AutoGroups to the first group serving the model", async () => {
    await r.s.root.put("/api/option/", {
      key: "UserUsableGroups",
      value: JSON.stringify({ default: "Default", vip: "VIP", auto: "Auto" }),
    });
    await r.s.root.put("/api/option/", { key: "AutoGroups", value: JSON.stringify(["default", "vip"]) });
    const { key } = await r.newKey({ group: "auto" });
    vipUpstream.requests.length = 0;
    await r.openai(key).chat.completions.create({ model: "vip-only", messages: [{ role: "user", content: "hi" }] });
    expect(vipUpstream.requests).toHaveLength(1);
    expect((await r.consumeLogs()).at(-1).group).toBe("vip");
  });

  test("/dashboard/billing/subscription and /usage answer in USD for the token", async () => {
    await r.openai().chat.completions.create({ model: "pg-model", messages: [{ role: "user", content: "hi" }] });
    const token = await r.tokenRow();
    const headers = { authorization: `Bearer ${r.key}` };
    const sub = await (await fetch(`${r.s.url}/dashboard/billing/subscription`, { headers })).json();
    expect(sub).toMatchObject({ object: "billing_subscription", has_payment_method: true });
    expect(sub.hard_limit_usd).toBeCloseTo(TOKEN_QUOTA / 500000, 6);
    const usage = await (await fetch(`${r.s.url}/v1/dashboard/billing/usage`, { headers })).json();
    expect(usage.total_usage).toBeCloseTo((token.used_quota / 500000) * 100, 6);
  });

  test("unknown /v1 paths answer an OpenAI-shaped 404", async () => {
    const response = await fetch(`${r.s.url}/v1/nope`, { headers: { authorization: `Bearer ${r.key}` } });
    expect(response.status).toBe(404);
    expect((await response.json()).error.message).toBe("Invalid URL (GET /v1/nope)");
  });

  test("a per-call priced model bills price × QuotaPerUnit × n", async () => {
    await r.setPrices({}, {}, { "img-model": 0.04 });
    await r.addChannel({ models: "img-model" });
    const before = await r.tokenRow();
    await r.openai().images.generate({ model: "img-model", prompt: "a cat", n: 2 });
    const after = await r.tokenRow();
    expect(before.remain_quota - after.remain_quota).toBe(2 * 0.04 * 500000);
  });
});
