import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createChannel, useAdminServer } from "../../support/channels";
import type { ApiClient } from "../../support/client";
import { DIALECTS } from "../../support/databases";
import { startFakeGemini } from "../../support/fake-gemini";
import type { FakeUpstream } from "../../support/fake-upstream";
import { expectNoSecrets, refused } from "../../support/upstream-refusals";
import { oddUpstream } from "../../support/odd-upstream";
import type { TestServer } from "../../support/server";

describe.each(DIALECTS)("a Gemini channel's model list on %s", (dialect) => {
  const KEY = "sk-ant-fake-key-0002";
  const MODELS = ["model-a", "model-b", "model-c", "model-d", "model-e"].map((m) => `gemini-${m}`);
  let s: TestServer;
  let admin: ApiClient;
  let gemini: FakeUpstream;
  useAdminServer(dialect, (started) => ({ s, admin } = started));
  beforeAll(() => {
    gemini = startFakeGemini({ apiKey: KEY, models: MODELS });
  });
  afterAll(() => gemini.stop());
  beforeEach(() => {
    gemini.requests.length = 0;
  });

  test("a Gemini channel lists its models across pages without the models/ prefix, the key in x-goog-api-key", async () => {
    const reply = await admin.post("/api/channel/fetch_models", { type: 24, base_url: `${gemini.url}/`, key: KEY });
    expect(reply.body).toEqual({ success: true, message: "", data: MODELS });
    expect(gemini.requests.map((r) => `${r.method} ${r.path}${r.search}`)).toEqual([
      "GET /v1beta/models?pageSize=1000",
      "GET /v1beta/models?pageSize=1000&pageToken=page-2",
      "GET /v1beta/models?pageSize=1000&pageToken=page-4",
    ]);
    for (const r of gemini.requests) {
      expect(r.headers["x-goog-api-key"]).toBe(KEY);
      expect(r.search).not.toContain(KEY);
    }
    // The stored channel's other names the API version, as for the relay.
    const id = await createChannel(s, { type: 24, base_url: gemini.url, key: KEY, other: "v1" });
    refused(
      await admin.get(`/api/channel/fetch_models/${id}`),
      "fetching the model list failed: the upstream answered HTTP 404",
    );
    expect(gemini.requests.at(-1)!.path).toBe("/v1/models");
  });

  test("a wrong key on type 24 (Gemini) is told by status, without the address or the key", async () => {
    const wrongKey = "sk-wrong-key-888";
    const reply = await admin.post("/api/channel/fetch_models", { type: 24, base_url: gemini.url, key: wrongKey });
    refused(reply, "fetching the model list failed: the upstream answered HTTP 401");
    expectNoSecrets(reply, gemini, wrongKey);
    const id = await createChannel(s, { type: 24, base_url: gemini.url, key: wrongKey });
    const stored = await admin.get(`/api/channel/fetch_models/${id}`);
    refused(stored, "fetching the model list failed: the upstream answered HTTP 401");
    expectNoSecrets(stored, gemini, wrongKey);
  });

  test("non-JSON and shapeless replies are refused clearly", async () => {
    {
      using html = oddUpstream(() => new Response(`<html>${KEY}</html>`, { headers: { "content-type": "text/html" } }));
      const notJson = await admin.post("/api/channel/fetch_models", { type: 24, base_url: html.url, key: KEY });
      refused(notJson, "fetching the model list failed: the upstream reply is not JSON");
      expectNoSecrets(notJson, html, KEY);
    }
    using shapeless = oddUpstream(() => Response.json({ models: "none" }));
    refused(
      await admin.post("/api/channel/fetch_models", { type: 24, base_url: shapeless.url, key: KEY }),
      "fetching the model list failed: the upstream reply is not a model list",
    );
  });
});
