import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/service/config";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, type RelayEnv } from "./support";

const PAGE = "https://app.example.com";

/** A browser's preflight before a cross-origin call with the given request headers. */
const preflight = (url: string, headers: string, origin = PAGE) =>
  fetch(url, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": headers,
    },
  });

const chat = (r: RelayEnv, path = "/v1/chat/completions") =>
  fetch(`${r.s.url}${path}`, {
    method: "POST",
    headers: { origin: PAGE, authorization: `Bearer ${r.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "cors-model", messages: [{ role: "user", content: "hi" }] }),
  });

describe.each(DIALECTS)("CORS on the relay on %s", (dialect) => {
  describe("by default any origin may call the relay (its auth is a key in a header, not a cookie)", () => {
    let r: RelayEnv;
    beforeAll(async () => {
      r = await startRelayEnv(dialect);
      await r.setPrices({ "cors-model": 1 });
      await r.addChannel({ models: "cors-model" });
    });
    afterAll(() => r.stop());

    test("a preflight on every relay prefix is answered 204 with origin, methods, headers and max-age", async () => {
      const asked = "authorization, x-stainless-os, content-type";
      for (const path of [
        "/v1/chat/completions",
        "/v1/models",
        "/v1beta/models/x:generateContent",
        "/pg/chat/completions",
        "/dashboard/billing/usage",
        "/v1/messages",
      ]) {
        const reply = await preflight(`${r.s.url}${path}`, asked);
        const allowedHeaders = reply.headers.get("access-control-allow-headers")?.split(/\s*,\s*/) ?? [];
        expect({ path, status: reply.status, origin: reply.headers.get("access-control-allow-origin") }).toEqual({
          path,
          status: 204,
          origin: "*",
        });
        expect(reply.headers.get("access-control-allow-methods")).toContain("POST");
        expect(Number(reply.headers.get("access-control-max-age"))).toBeGreaterThan(0);
        for (const header of [
          "authorization",
          "x-api-key",
          "x-goog-api-key",
          "anthropic-version",
          "anthropic-beta",
          "content-type",
          "x-stainless-os",
        ]) {
          expect(allowedHeaders).toContain(header);
        }
      }
    });

    test("relay replies carry Access-Control-Allow-Origin and expose the request id, both ways in and on errors", async () => {
      const replies = [
        await chat(r),
        await fetch(`${r.s.url}/v1/models`, { headers: { origin: PAGE, authorization: `Bearer ${r.key}` } }),
        await fetch(`${r.s.url}/v1/chat/completions`, { method: "POST", headers: { origin: PAGE }, body: "{}" }),
        await fetch(`${r.s.url}/v1/nope`, { headers: { origin: PAGE } }),
      ];
      expect(replies[0]!.status).toBe(200);
      for (const reply of replies) {
        expect(reply.headers.get("access-control-allow-origin")).toBe("*");
        expect(reply.headers.get("access-control-allow-credentials")).toBeNull();
      }
      expect(replies[0]!.headers.get("access-control-expose-headers")).toContain("x-tollgate-request-id");
    });

    test("the management API stays same-origin: no CORS headers, no preflight answer", async () => {
      const reply = await preflight(`${r.s.url}/api/user/self`, "content-type");
      expect(reply.status).not.toBe(204);
      expect(reply.headers.get("access-control-allow-origin")).toBeNull();
      const status = await fetch(`${r.s.url}/api/status`, { headers: { origin: PAGE } });
      expect(status.headers.get("access-control-allow-origin")).toBeNull();
    });
  });

  describe("RELAY_CORS_ORIGINS names the origins allowed", () => {
    let r: RelayEnv;
    beforeAll(async () => {
      r = await startRelayEnv(dialect, { RELAY_CORS_ORIGINS: `${PAGE}, https://other.example.org` });
      await r.setPrices({ "cors-model": 1 });
      await r.addChannel({ models: "cors-model" });
    });
    afterAll(() => r.stop());

    test("a named origin is echoed back (with Vary: Origin); any other gets no Allow-Origin", async () => {
      const allowed = await preflight(`${r.s.url}/v1/chat/completions`, "authorization");
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get("access-control-allow-origin")).toBe(PAGE);
      expect(allowed.headers.get("vary")).toContain("Origin");
      const refused = await preflight(`${r.s.url}/v1/chat/completions`, "authorization", "https://evil.example.net");
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      const reply = await chat(r);
      expect(reply.headers.get("access-control-allow-origin")).toBe(PAGE);
    });
  });
});

describe("RELAY_CORS_ORIGINS setting", () => {
  test("unset, empty or * means any origin; a list of origins is kept; anything else stops the start", () => {
    expect(loadConfig({}).relayCorsOrigins).toEqual(["*"]);
    expect(loadConfig({ RELAY_CORS_ORIGINS: " " }).relayCorsOrigins).toEqual(["*"]);
    expect(loadConfig({ RELAY_CORS_ORIGINS: "*" }).relayCorsOrigins).toEqual(["*"]);
    expect(loadConfig({ RELAY_CORS_ORIGINS: "https://a.example, http://b.example:8080/" }).relayCorsOrigins).toEqual([
      "https://a.example",
      "http://b.example:8080",
    ]);
    expect(() => loadConfig({ RELAY_CORS_ORIGINS: "https://a.example/path" })).toThrow(
      /RELAY_CORS_ORIGINS: "https:\/\/a.example\/path"/,
    );
    expect(() => loadConfig({ RELAY_CORS_ORIGINS: "a.example" })).toThrow(/RELAY_CORS_ORIGINS/);
  });
});
