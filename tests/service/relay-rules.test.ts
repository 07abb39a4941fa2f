import { describe, expect, test } from "bun:test";
import { quotaFor, reservationFor } from "../../src/service/billing/quota";
import type { Price } from "../../src/service/billing/pricing";
import { estimatePromptTokens, promptFitsIn } from "../../src/service/relay/endpoints";
import { maskUpstreamText } from "../../src/service/relay/mask";
import { mapModel } from "../../src/service/relay/model-mapping";
import { mapStatus } from "../../src/service/relay/retry-policy";
import { statusMatcher } from "../../src/service/relay/status-ranges";

const ratio = (over: Partial<Extract<Price, { kind: "ratio" }>> = {}): Price => ({
  kind: "ratio",
  modelRatio: 1,
  completionRatio: 1,
  cacheRatio: 1,
  createCacheRatio: 1.25,
  groupRatio: 1,
  userGroupRatio: -1,
  ...over,
});

describe("quota = round(group × model × (prompt − cached + cached × cache ratio + completion × completion ratio))", () => {
  test("the formula, with each factor", () => {
    const price = ratio({ modelRatio: 1.25, completionRatio: 4, cacheRatio: 0.5, groupRatio: 0.8 });
    const usage = { promptTokens: 1000, completionTokens: 200, cachedTokens: 400 };
    expect(quotaFor(price, usage, 500000)).toBe(Math.round(0.8 * 1.25 * (600 + 400 * 0.5 + 200 * 4)));
  });
  test("prompt-cache writes (Claude) cost the create-cache ratio instead of the prompt price", () => {
    const price = ratio({ modelRatio: 1.5, completionRatio: 5, cacheRatio: 0.1, createCacheRatio: 1.25 });
    const usage = { promptTokens: 1000, completionTokens: 100, cachedTokens: 300, cacheWriteTokens: 200 };
    expect(quotaFor(price, usage, 500000)).toBe(Math.round(1.5 * (500 + 300 * 0.1 + 200 * 1.25 + 100 * 5)));
  });
  test("half rounds away from zero", () => {
    expect(
      quotaFor(ratio({ modelRatio: 0.5 }), { promptTokens: 3, completionTokens: 0, cachedTokens: 0 }, 500000),
    ).toBe(2);
  });
  test("a paid call that rounds to 0 costs 1; a free model (ratio 0) costs 0", () => {
    expect(
      quotaFor(ratio({ modelRatio: 0.001 }), { promptTokens: 10, completionTokens: 0, cachedTokens: 0 }, 500000),
    ).toBe(1);
    expect(quotaFor(ratio({ modelRatio: 0 }), { promptTokens: 10, completionTokens: 5, cachedTokens: 0 }, 500000)).toBe(
      0,
    );
  });
  test("nothing used costs nothing", () => {
    expect(quotaFor(ratio(), { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, 500000)).toBe(0);
  });
  test("a per-call price is price × QuotaPerUnit × group ratio", () => {
    const price: Price = { kind: "per-call", modelPrice: 0.04, groupRatio: 1.5, userGroupRatio: -1 };
    expect(quotaFor(price, { promptTokens: 99, completionTokens: 99, cachedTokens: 0 }, 500000)).toBe(30000);
  });
  test("the reservation prices the prompt (at least the floor) plus the completion budget", () => {
    const price = ratio({ modelRatio: 2, completionRatio: 3 });
    expect(reservationFor(price, { promptTokens: 100, maxCompletionTokens: 50 }, 500, 500000)).toBe(2 * (500 + 150));
    expect(reservationFor(price, { promptTokens: 900, maxCompletionTokens: 0 }, 500, 500000)).toBe(1800);
  });
});

describe("a small prompt is reserved at the floor without counting", () => {
  const cases = [
    JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
    JSON.stringify({
      model: "gpt-4o",
      messages: [
        { role: "user", content: "你好世界，这是一个测试" },
        { role: "assistant", content: "🙂🙂🙂" },
      ],
    }),
    JSON.stringify({
      model: "gpt-4o",
      messages: [{ role: "user", content: "x" }],
      tools: [{ type: "function", function: { name: "f", parameters: {} } }],
    }),
  ];
  test.each(cases)("the real count never exceeds what promptFitsIn allowed: %s", (raw) => {
    const body = JSON.parse(raw);
    const limit = Buffer.byteLength(raw);
    expect(promptFitsIn(raw, limit)).toBe(true);
    expect(estimatePromptTokens("chat", body.model, body)).toBeLessThanOrEqual(limit);
  });
  test("media parts always get counted", () => {
    const raw = JSON.stringify({
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "http://x/a.png" } }] }],
    });
    expect(promptFitsIn(raw, 10_000)).toBe(false);
  });
});

describe("status ranges, mapping and masking", () => {
  test("'401,500-503' matches its members only", () => {
    const m = statusMatcher("401, 500-503,bogus");
    expect([401, 500, 502, 503].every(m)).toBe(true);
    expect([400, 499, 504].some(m)).toBe(false);
  });
  test("status_code_mapping rewrites errors, never 2xx", () => {
    expect(mapStatus({ "400": "500" }, 400)).toBe(500);
    expect(mapStatus({ "200": "500" }, 200)).toBe(200);
    expect(mapStatus({ "400": "nonsense" }, 400)).toBe(400);
  });
  test("model mapping follows chains and refuses cycles", () => {
    expect(mapModel({ a: "b", b: "c" }, "a")).toBe("c");
    expect(mapModel({ a: "a" }, "a")).toBe("a");
    expect(() => mapModel({ a: "b", b: "a" }, "a")).toThrow("cycle");
    expect(mapModel({}, "constructor")).toBe("constructor");
  });
  test("upstream text loses URLs, addresses and key-shaped strings", () => {
    const text = "failed calling https://api.secret-host.com/v1/x with key sk-abcdefghijklmnop from 10.0.0.5:8080";
    const masked = maskUpstreamText(text, ["my-channel-key"]);
    expect(masked).not.toContain("secret-host");
    expect(masked).not.toContain("sk-abcdefghijklmnop");
    expect(masked).not.toContain("10.0.0.5");
    expect(maskUpstreamText("bad my-channel-key!", ["my-channel-key"])).toBe("bad ***!");
  });
});
