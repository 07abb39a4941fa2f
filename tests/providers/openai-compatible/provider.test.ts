import { describe, expect, test } from "bun:test";
import { providerFor } from "../../../src/gateway/relay/providers/registry";

const openai = providerFor(1);
const channel = { type: 1, key: "sk-first\nsk-second", base_url: "", other: "", openai_organization: "org-7" };

describe("OpenAI-compatible upstreams", () => {
  test("the incoming path under the type's default address, the first key as a Bearer token, the organization passed on", () => {
    const call = {
      path: "/v1/embeddings",
      model: "text-embedding-3-small",
      body: "{}",
      contentType: "application/json",
      stream: false,
    };
    expect(openai.request(channel, call)).toEqual({
      url: "https://api.openai.com/v1/embeddings",
      headers: { authorization: "Bearer sk-first", "content-type": "application/json", "openai-organization": "org-7" },
    });
  });

  test("an OpenAI-compatible type's own default address; a channel's base URL wins, without trailing slashes", () => {
    const call = { path: "/v1/chat/completions", model: "deepseek-chat", body: "{}", contentType: null, stream: false };
    expect(providerFor(43).request({ ...channel, type: 43 }, call).url).toBe(
      "https://api.deepseek.com/v1/chat/completions",
    );
    expect(providerFor(43).request({ ...channel, type: 43, base_url: "https://proxy.example//" }, call).url).toBe(
      "https://proxy.example/v1/chat/completions",
    );
  });

  test("the model list is GET {base}/v1/models, one page of {data: [{id}]}", () => {
    const models = openai.models!;
    expect(models.url("https://api.openai.com", channel, undefined)).toBe("https://api.openai.com/v1/models");
    expect(models.headers(channel)).toEqual({ authorization: "Bearer sk-first" });
    expect(models.page({ data: [{ id: "gpt-4o" }, { id: "o3" }] })).toEqual({ ids: ["gpt-4o", "o3"] });
    expect(models.page({ data: "none" })).toBeUndefined();
  });

  test("the balance is the subscription's hard limit (USD) less the last 100 days' usage (cents)", () => {
    const balance = openai.balance!;
    const now = Date.UTC(2026, 0, 31) / 1000;
    expect(balance.urls("https://api.openai.com", now)).toEqual([
      "https://api.openai.com/v1/dashboard/billing/subscription",
      "https://api.openai.com/v1/dashboard/billing/usage?start_date=2025-10-23&end_date=2026-02-01",
    ]);
    expect(balance.balanceOf([{ hard_limit_usd: 100 }, { total_usage: 2500 }])).toBe(75);
    expect(balance.balanceOf([{ hard_limit_usd: "100" }, { total_usage: 2500 }])).toBeUndefined();
  });
});
