import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SERVED_TYPES } from "../../../src/gateway/relay/providers/registry";
import { channelBody } from "../../support/channels";
import { DIALECTS } from "../../support/databases";
import { startFakeCompat, type CompatRules } from "../../support/fake-compat";
import type { FakeUpstream } from "../../support/fake-upstream";
import { failure, startRelayEnv, type RelayEnv } from "../../relay/support";

/** A type no family implements (a task API): the gateway cannot call it. */
const UNSERVED = 56;
const MODELS = ["vendor-a", "vendor-b"];

/** [type, the vendor's rules, the path under the fake that stands for the vendor's host, the channel's other]. */
const LISTINGS: [number, Omit<CompatRules, "apiKey">, string, string][] = [
  [1, { prefix: "/v1" }, "", ""],
  [4, { prefix: "/v1", ollamaTags: true }, "", ""],
  [16, { prefix: "/api/paas/v4" }, "", ""],
  [17, { prefix: "/compatible-mode/v1" }, "", ""],
  [20, { prefix: "/api/v1" }, "/api", ""],
  [23, { prefix: "/v1" }, "", ""],
  [25, { prefix: "/v1" }, "", ""],
  [35, { prefix: "/v1" }, "", ""],
  [39, { prefix: "/client/v4/accounts/acc-7/ai/v1", cloudflareSearchPage: 1 }, "", "acc-7"],
  [45, { prefix: "/api/v3" }, "", ""],
  [46, { prefix: "/v2" }, "", ""],
  [47, { prefix: "/v1" }, "", ""],
];

describe.each(DIALECTS)("channel types without a provider, and model lists per vendor, on %s", (dialect) => {
  let r: RelayEnv;
  const fakes: FakeUpstream[] = [];
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
  });
  afterAll(async () => {
    await r.stop();
    await Promise.all(fakes.map((f) => f.stop()));
  });
  const channelCount = async () => (await r.s.ctx.db.k.selectFrom("channels").select("id").execute()).length;

  test("a type no provider serves is refused at creation with a clear message, and nothing is stored", async () => {
    const before = await channelCount();
    const reply = await r.s.root.post("/api/channel/", channelBody({ type: UNSERVED }));
    expect(reply.body).toEqual({
      success: false,
      message: "channel type Replicate (56) has no provider in this gateway: choose another type",
    });
    const batch = await r.s.root.post("/api/channel/", { mode: "batch", channel: channelBody({ type: UNSERVED }) });
    expect(batch.body.success).toBe(false);
    expect(await channelCount()).toBe(before);
  });

  test("a channel cannot be changed to such a type; Cloudflare needs its account id", async () => {
    const id = (await r.s.root.post("/api/channel/", channelBody())).body.data.id;
    const edit = await r.s.root.put("/api/channel/", { id, type: UNSERVED });
    expect(edit.body).toMatchObject({ success: false, message: expect.stringContaining("has no provider") });
    const cloudflare = await r.s.root.post("/api/channel/", channelBody({ type: 39 }));
    expect(cloudflare.body).toEqual({
      success: false,
      message: "other (account-id) is required for channel type Cloudflare",
    });
  });

  test("GET /api/channel/types offers exactly the types some provider serves", async () => {
    const reply = await r.s.root.get("/api/channel/types");
    expect(reply.body.data).toEqual(SERVED_TYPES);
    expect(reply.body.data).not.toContain(UNSERVED);
    expect((await (await r.s.newUser()).get("/api/channel/types")).body.success).toBe(false);
  });

  test("a stored channel whose type lost its provider is passed over by the relay with a clear error; it can still be disabled", async () => {
    await r.setPrices({ "orphan-model": 1 });
    const id = await r.addChannel({ models: "orphan-model" });
    await r.s.ctx.db.k.updateTable("channels").set({ type: UNSERVED }).where("id", "=", id).execute();
    await r.s.ctx.relay.routes.rebuild();
    const sent = r.fake.requests.length;
    const error = await failure(
      r.openai().chat.completions.create({ model: "orphan-model", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(error.message).toContain("channel type Replicate (56) has no provider in this gateway");
    expect(r.fake.requests.length).toBe(sent);
    expect((await r.s.root.put("/api/channel/", { id, status: 2 })).body.data.status).toBe(2);
  });

  const listPath = (rules: Omit<CompatRules, "apiKey">) =>
    rules.ollamaTags
      ? "/api/tags"
      : rules.cloudflareSearchPage
        ? `${rules.prefix.replace(/\/ai\/v1$/, "")}/ai/models/search`
        : `${rules.prefix}/models`;

  test.each(LISTINGS)(
    "fetching the model list of type %d asks the vendor's own address",
    async (type, rules, host, other) => {
      const fake = startFakeCompat({ ...rules, apiKey: `key-${type}` }, { models: MODELS });
      fakes.push(fake);
      const reply = await r.s.root.post("/api/channel/fetch_models", {
        type,
        base_url: fake.url + host,
        key: `key-${type}`,
        ...(other && { other }),
      });
      expect(reply.body).toEqual({ success: true, message: "", data: MODELS });
      const asked = fake.requests.filter((q) => q.method === "GET").map((q) => q.path);
      expect(asked.every((path) => path === listPath(rules))).toBe(true);
      // Cloudflare's search hands out one model a page here: every page was followed.
      expect(asked.length).toBe(rules.cloudflareSearchPage ? MODELS.length : 1);
    },
  );
});
