import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createChannel, useAdminServer } from "../../support/channels";
import type { ApiClient } from "../../support/client";
import { DIALECTS } from "../../support/databases";
import { startFakeAnthropic } from "../../support/fake-anthropic";
import type { FakeUpstream } from "../../support/fake-upstream";
import { expectNoSecrets, refused } from "../../support/upstream-refusals";
import { oddUpstream } from "../../support/odd-upstream";
import type { TestServer } from "../../support/server";

describe.each(DIALECTS)("an Anthropic channel's model list on %s", (dialect) => {
  const KEY = "sk-ant-fake-key-0002";
  const MODELS = ["model-a", "model-b", "model-c", "model-d", "model-e"];
  let s: TestServer;
  let admin: ApiClient;
  let anthropic: FakeUpstream;
  useAdminServer(dialect, (started) => ({ s, admin } = started));
  beforeAll(() => {
    anthropic = startFakeAnthropic({ apiKey: KEY, models: MODELS });
  });
  afterAll(() => anthropic.stop());
  beforeEach(() => {
    anthropic.requests.length = 0;
  });

  test("an Anthropic channel lists its models across pages, with x-api-key and anthropic-version", async () => {
    const id = await createChannel(s, { type: 14, base_url: anthropic.url, key: KEY });
    expect((await admin.get(`/api/channel/fetch_models/${id}`)).body).toEqual({
      success: true,
      message: "",
      data: MODELS,
    });
    expect(anthropic.requests.map((r) => `${r.method} ${r.path}${r.search}`)).toEqual([
      "GET /v1/models?limit=1000",
      "GET /v1/models?after_id=model-b&limit=1000",
      "GET /v1/models?after_id=model-d&limit=1000",
    ]);
    for (const r of anthropic.requests) {
      expect(r.headers).toMatchObject({ "x-api-key": KEY, "anthropic-version": "2023-06-01" });
      expect(r.headers).not.toHaveProperty("authorization");
    }
  });

  test("a wrong key on type 14 (Anthropic) is told by status, without the address or the key", async () => {
    const wrongKey = "sk-wrong-key-888";
    const reply = await admin.post("/api/channel/fetch_models", { type: 14, base_url: anthropic.url, key: wrongKey });
    refused(reply, "fetching the model list failed: the upstream answered HTTP 401");
    expectNoSecrets(reply, anthropic, wrongKey);
    const id = await createChannel(s, { type: 14, base_url: anthropic.url, key: wrongKey });
    const stored = await admin.get(`/api/channel/fetch_models/${id}`);
    refused(stored, "fetching the model list failed: the upstream answered HTTP 401");
    expectNoSecrets(stored, anthropic, wrongKey);
  });

  test("an unreachable upstream is refused clearly; endless pages stop", async () => {
    const closed = startFakeAnthropic();
    await closed.stop();
    const unreachable = await admin.post("/api/channel/fetch_models", { type: 14, base_url: closed.url, key: KEY });
    refused(unreachable, "fetching the model list failed: the upstream could not be reached");
    expectNoSecrets(unreachable, closed, KEY);
    // An upstream that always has more: a new model and cursor on every page, followed 20 pages at the most.
    using endless = oddUpstream((url) => {
      const n = Number(url.searchParams.get("after_id")?.slice(1) ?? 0) + 1;
      return Response.json({ data: [{ id: `m${n}` }], has_more: true, last_id: `m${n}` });
    });
    const reply = await admin.post("/api/channel/fetch_models", { type: 14, base_url: endless.url, key: KEY });
    expect(reply.body.data).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 1}`));
    expect(endless.calls.length).toBe(20);
  });
});
