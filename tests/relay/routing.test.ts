import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { DIALECTS } from "../support/databases";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { startRelayEnv, type RelayEnv } from "./support";

// A native promise: bun's `rejects` does not follow the SDK's APIPromise.
const ask = async (client: OpenAI, model: string) =>
  await client.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });

describe.each(DIALECTS)("routing, retry and health on %s", (dialect) => {
  let r: RelayEnv;
  let high: FakeUpstream;
  let low: FakeUpstream;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    high = startFakeUpstream();
    low = startFakeUpstream();
    await r.setPrices({ tiered: 1, mapped: 1, weighted: 1, pinned: 1, "upstream-name": 1 });
  });
  afterAll(async () => {
    await r.stop();
    await high.stop();
    await low.stop();
  });
  beforeEach(async () => {
    high.requests.length = 0;
    low.requests.length = 0;
    high.setBehavior({});
    low.setBehavior({});
    await r.s.ctx.options.set("RetryTimes", 2);
  });

  test("the highest priority tier answers while it is healthy", async () => {
    await r.addChannel({ models: "tiered", priority: 10 }, high);
    await r.addChannel({ models: "tiered", priority: 0 }, low);
    for (let i = 0; i < 4; i++) await ask(r.openai(), "tiered");
    expect(high.requests).toHaveLength(4);
    expect(low.requests).toHaveLength(0);
  });

  test("a failing tier fails over to the next one, and the failed channel is tried once", async () => {
    high.setBehavior({ status: 500 });
    const reply = await ask(r.openai(), "tiered");
    expect(reply.choices[0]!.message.content).toBeTruthy();
    expect(high.requests).toHaveLength(1);
    expect(low.requests).toHaveLength(1);
    const log = (await r.consumeLogs()).at(-1);
    expect(JSON.parse(log.other).admin_info.use_channel).toHaveLength(2);
  });

  test("with RetryTimes 0 a failure is final", async () => {
    await r.s.ctx.options.set("RetryTimes", 0);
    high.setBehavior({ status: 500 });
    await expect(ask(r.openai(), "tiered")).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    expect(low.requests).toHaveLength(0);
  });

  test("a 400 from the upstream is not retried (not in the retry list)", async () => {
    high.setBehavior({ status: 400 });
    await expect(ask(r.openai(), "tiered")).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    expect(low.requests).toHaveLength(0);
  });

  test("status_code_mapping turns an upstream status into another before the retry decision", async () => {
    const mappedHigh = startFakeUpstream();
    await r.addChannel(
      { models: "weighted", priority: 5, status_code_mapping: JSON.stringify({ "400": "500" }) },
      mappedHigh,
    );
    await r.addChannel({ models: "weighted", priority: 1 }, low);
    mappedHigh.setBehavior({ status: 400 });
    expect((await ask(r.openai(), "weighted")).choices).toHaveLength(1);
    expect(low.requests).toHaveLength(1);
    await mappedHigh.stop();
  });

  test("weights split traffic inside a tier", async () => {
    const a = startFakeUpstream();
    const b = startFakeUpstream();
    await r.addChannel({ models: "pinned", weight: 9 }, a);
    await r.addChannel({ models: "pinned", weight: 1 }, b);
    await Promise.all(Array.from({ length: 60 }, () => ask(r.openai(), "pinned")));
    expect(a.requests.length).toBeGreaterThan(b.requests.length);
    expect(a.requests.length + b.requests.length).toBe(60);
    await a.stop();
    await b.stop();
  });

  test("model_mapping sends the upstream name; billing and logs keep the requested one and record both", async () => {
    await r.addChannel({ models: "mapped", model_mapping: JSON.stringify({ mapped: "upstream-name" }) }, low);
    await ask(r.openai(), "mapped");
    expect(low.requests.at(-1)!.body.model).toBe("upstream-name");
    const log = (await r.consumeLogs()).at(-1);
    expect(log.model_name).toBe("mapped");
    expect(JSON.parse(log.other)).toMatchObject({ upstream_model_name: "upstream-name", is_model_mapped: true });
  });

  test("an admin may pin a channel with sk-KEY-<id>; an ordinary user may not", async () => {
    const pinnedId = await r.addChannel({ models: "pinned", priority: -5 }, low);
    const root = await r.s.root.post("/api/token/", { name: "root-key", unlimited_quota: true });
    const rootKey = root.body.data.keys[0] as string;
    low.requests.length = 0;
    await ask(r.openai(`${rootKey}-${pinnedId}`), "pinned");
    expect(low.requests).toHaveLength(1);
    await expect(ask(r.openai(`${r.key}-${pinnedId}`), "pinned")).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  describe("auto-disable and re-enable", () => {
    test("a 401 disables the channel (status 3 with the reason) when AutomaticDisableChannelEnabled", async () => {
      await r.s.ctx.options.set("AutomaticDisableChannelEnabled", true);
      const broken = startFakeUpstream();
      const id = await r.addChannel({ models: "health-model", priority: 9 }, broken);
      await r.addChannel({ models: "health-model", priority: 0 }, low);
      await r.setPrices({ "health-model": 1 });
      broken.setBehavior({ status: 401 });
      expect((await ask(r.openai(), "health-model")).choices).toHaveLength(1);
      const row = await r.s.ctx.db.k.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      expect(row.status).toBe(3);
      expect(JSON.parse(row.other_info).status_reason).toContain("401");
      broken.requests.length = 0;
      await ask(r.openai(), "health-model");
      expect(broken.requests).toHaveLength(0);

      await r.s.ctx.options.set("AutomaticEnableChannelEnabled", true);
      broken.setBehavior({});
      const { testChannels } = await import("../../src/service/relay/channel-tests");
      const { relayProbe } = await import("../../src/gateway/relay/probe");
      await testChannels(r.s.ctx, relayProbe(r.s.ctx), [3]);
      const after = await r.s.ctx.db.k
        .selectFrom("channels")
        .select(["status", "test_time"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(after.status).toBe(1);
      expect(after.test_time).toBeGreaterThan(0);
      await r.s.ctx.options.set("AutomaticDisableChannelEnabled", false);
      await broken.stop();
    });

    test("a keyword in the upstream error disables too (case-insensitive)", async () => {
      await r.s.ctx.options.set("AutomaticDisableChannelEnabled", true);
      const broke = startFakeUpstream();
      const id = await r.addChannel({ models: "kw-model" }, broke);
      await r.setPrices({ "kw-model": 1 });
      broke.setBehavior({ status: 403, errorMessage: "YOU EXCEEDED YOUR CURRENT QUOTA, check billing" });
      await expect(ask(r.openai(), "kw-model")).rejects.toMatchObject({ status: 502, code: "upstream_auth_error" });
      const row = await r.s.ctx.db.k
        .selectFrom("channels")
        .select("status")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(3);
      await r.s.ctx.options.set("AutomaticDisableChannelEnabled", false);
      await broke.stop();
    });

    test("auto_ban 0 keeps a failing channel enabled", async () => {
      await r.s.ctx.options.set("AutomaticDisableChannelEnabled", true);
      const broke = startFakeUpstream();
      const id = await r.addChannel({ models: "ban-off", auto_ban: 0 }, broke);
      await r.setPrices({ "ban-off": 1 });
      broke.setBehavior({ status: 401 });
      await expect(ask(r.openai(), "ban-off")).rejects.toMatchObject({ status: 502, code: "upstream_auth_error" });
      const row = await r.s.ctx.db.k
        .selectFrom("channels")
        .select("status")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(1);
      await r.s.ctx.options.set("AutomaticDisableChannelEnabled", false);
      await broke.stop();
    });
  });

  describe("channel test", () => {
    test("GET /api/channel/test/{id} records response_time and test_time and answers {success, message, time}", async () => {
      const id = await r.addChannel({ models: "tiered", test_model: "tiered" }, low);
      const reply = await r.s.root.get(`/api/channel/test/${id}`);
      expect(reply.body.success).toBe(true);
      expect(typeof reply.body.time).toBe("number");
      const row = await r.s.ctx.db.k
        .selectFrom("channels")
        .select(["response_time", "test_time"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row.test_time).toBeGreaterThan(0);
      expect(low.requests.at(-1)!.body).toMatchObject({ model: "tiered", max_tokens: 16 });
    });

    test("a failing test answers success false with the upstream message", async () => {
      const id = await r.addChannel({ models: "tiered" }, high);
      high.setBehavior({ status: 500, errorMessage: "boom upstream" });
      const reply = await r.s.root.get(`/api/channel/test/${id}`);
      expect(reply.body).toMatchObject({ success: false, message: "boom upstream" });
    });

    test("a second test-all while one runs is refused", async () => {
      high.setBehavior({ latencyMs: 300 });
      const first = await r.s.root.get("/api/channel/test");
      expect(first.body.success).toBe(true);
      const second = await r.s.root.get("/api/channel/test");
      expect(second.body).toEqual({ success: false, message: "test already running" });
    });
  });
});
