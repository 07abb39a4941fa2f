import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from "../../src/service/options/default-prices";
import { channelRow, createChannel, expectAbilitiesInStep, useAdminServer } from "../support/channels";
import type { ApiClient } from "../support/client";
import { DIALECTS } from "../support/databases";
import { startFakeOpenAiModels, type FakeOpenAiModels } from "../support/fake-openai-models";
import { expectNoSecrets, refused } from "../support/upstream-refusals";
import type { TestServer } from "../support/server";

describe.each(DIALECTS)("channel upstream calls on %s", (dialect) => {
  let s: TestServer;
  let admin: ApiClient;
  let fake: FakeOpenAiModels;
  useAdminServer(dialect, (started) => ({ s, admin } = started));
  beforeAll(() => {
    fake = startFakeOpenAiModels();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.failWith = 0;
    fake.hardLimitUsd = 100;
    fake.totalUsageCents = 2500;
    fake.requests.length = 0;
  });

  const upstreamChannel = (fields: Record<string, unknown> = {}) =>
    createChannel(s, { base_url: fake.url, key: fake.key, ...fields });

  describe("fetching the model list", () => {
    test("GET /api/channel/fetch_models/{id} lists the upstream's models with the stored key", async () => {
      const id = await upstreamChannel();
      expect((await admin.get(`/api/channel/fetch_models/${id}`)).body).toEqual({
        success: true,
        message: "",
        data: fake.models,
      });
      expect(fake.requests).toEqual([{ path: "/v1/models", authorization: `Bearer ${fake.key}` }]);
    });

    test("POST /api/channel/fetch_models uses the type, base URL and key given", async () => {
      const reply = await admin.post("/api/channel/fetch_models", {
        type: 43,
        base_url: `${fake.url}/`,
        key: fake.key,
      });
      expect(reply.body.data).toEqual(fake.models);
    });

    test("upstream errors are told by status, without the address or the key", async () => {
      const wrongKey = "sk-wrong-key-777";
      const reply = await admin.post("/api/channel/fetch_models", { type: 1, base_url: fake.url, key: wrongKey });
      refused(reply, "fetching the model list failed: the upstream answered HTTP 401");
      expectNoSecrets(reply, fake, wrongKey);
      fake.failWith = 500;
      const id = await upstreamChannel();
      const failed = await admin.get(`/api/channel/fetch_models/${id}`);
      refused(failed, "fetching the model list failed: the upstream answered HTTP 500");
      expectNoSecrets(failed, fake, fake.key);
    });

    test("an unreachable upstream, an unsupported type and missing fields are refused clearly", async () => {
      const closed = startFakeOpenAiModels();
      closed.stop();
      const unreachable = await admin.post("/api/channel/fetch_models", { type: 1, base_url: closed.url, key: "sk-x" });
      refused(unreachable, "fetching the model list failed: the upstream could not be reached");
      expectNoSecrets(unreachable, closed, "sk-x");
      const perplexity = await upstreamChannel({ type: 27 });
      refused(
        await admin.get(`/api/channel/fetch_models/${perplexity}`),
        "fetching the model list is not supported for channel type Perplexity",
      );
      refused(await admin.post("/api/channel/fetch_models", { base_url: fake.url, key: "k" }), "type is required");
      refused(await admin.post("/api/channel/fetch_models", { type: 1, base_url: fake.url }), "key is required");
      refused(
        await admin.post("/api/channel/fetch_models", { type: 47, key: "k" }),
        "fetching the model list failed: the channel has no base URL",
      );
      refused(await admin.get("/api/channel/fetch_models/999999"), "channel not found");
      expect(fake.requests).toEqual([]);
    });
  });

  describe("updating balances", () => {
    test("GET /api/channel/update_balance/{id} stores hard limit less usage and answers the channel", async () => {
      const id = await upstreamChannel();
      const reply = await admin.get(`/api/channel/update_balance/${id}/`);
      expect(reply.body).toMatchObject({ success: true, data: { id, balance: 75, status: 1 } });
      expect(reply.body.data).not.toHaveProperty("key");
      const row = await channelRow(s.ctx, id);
      expect(row!.balance).toBe(75);
      expect(row!.balance_updated_time).toBeGreaterThan(0);
      expect(fake.requests.map((r) => r.path)).toEqual([
        "/v1/dashboard/billing/subscription",
        "/v1/dashboard/billing/usage",
      ]);
    });

    test("a balance used up disables an auto-ban channel with the reason, abilities too", async () => {
      const id = await upstreamChannel();
      fake.totalUsageCents = 10000;
      expect((await admin.get(`/api/channel/update_balance/${id}`)).body.data).toMatchObject({ balance: 0, status: 3 });
      expect(JSON.parse((await channelRow(s.ctx, id))!.other_info).status_reason).toBe("insufficient balance");
      await expectAbilitiesInStep(s.ctx);
    });

    test("types that report no balance, upstream failures and missing channels are refused clearly", async () => {
      const anthropic = await upstreamChannel({ type: 14 });
      refused(
        await admin.get(`/api/channel/update_balance/${anthropic}`),
        "balance query is not supported for channel type Anthropic",
      );
      fake.failWith = 403;
      const id = await upstreamChannel();
      const failed = await admin.get(`/api/channel/update_balance/${id}`);
      refused(failed, "querying the balance failed: the upstream answered HTTP 403");
      expectNoSecrets(failed, fake, fake.key);
      expect((await channelRow(s.ctx, id))!.balance_updated_time).toBe(0);
      refused(await admin.get("/api/channel/update_balance/999999"), "channel not found");
    });

    test("GET /api/channel/update_balance updates every enabled channel whose type reports a balance", async () => {
      await s.ctx.db.k.deleteFrom("channels").execute();
      await s.ctx.db.k.deleteFrom("abilities").execute();
      const [a, b] = [await upstreamChannel(), await upstreamChannel({ name: "second" })];
      const disabled = await upstreamChannel({ status: 2 });
      await upstreamChannel({ type: 14 });
      await upstreamChannel({ key: "sk-bad" });
      expect((await admin.get("/api/channel/update_balance")).body.data).toEqual({
        updated: 2,
        failed: 1,
        unsupported: 1,
      });
      for (const id of [a!, b!]) expect((await channelRow(s.ctx, id))!.balance).toBe(75);
      expect((await channelRow(s.ctx, disabled))!.balance_updated_time).toBe(0);
    });
  });

  describe("model lists", () => {
    test("GET /api/channel/models lists priced and configured models once each, sorted", async () => {
      await upstreamChannel({ models: "my-custom-model,gpt-4o" });
      const models: string[] = (await admin.get("/api/channel/models")).body.data;
      expect(models).toEqual([...models].sort());
      expect(new Set(models).size).toBe(models.length);
      for (const model of [
        ...Object.keys(DEFAULT_MODEL_RATIO),
        ...Object.keys(DEFAULT_MODEL_PRICE),
        "my-custom-model",
      ]) {
        expect(models).toContain(model);
      }
    });

    test("GET /api/models groups model names by channel type", async () => {
      await upstreamChannel({ type: 43, models: "deepseek-custom" });
      const byType: Record<string, string[]> = (await admin.get("/api/models")).body.data;
      expect(byType["1"]).toContain("gpt-4o");
      expect(byType["1"]).not.toContain("claude-3-5-haiku-20241022");
      expect(byType["14"]).toContain("claude-3-5-haiku-20241022");
      expect(byType["2"]).toContain("mj_imagine");
      expect(byType["43"]).toEqual(expect.arrayContaining(["deepseek-chat", "deepseek-custom"]));
    });

    test("every channel type the form offers has related models to fill (issue #22)", async () => {
      const byType: Record<string, string[]> = (await admin.get("/api/models")).body.data;
      const offered: number[] = (await admin.get("/api/channel/types")).body.data;
      expect(offered.length).toBeGreaterThan(10);
      const empty = offered.filter((type) => (byType[String(type)]?.length ?? 0) === 0);
      expect(empty).toEqual([]);
      expect(byType["17"]).toContain("qwen-plus");
      expect(byType["48"]).toContain("grok-3");
    });
  });
});
