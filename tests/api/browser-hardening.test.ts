import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CROSS_SITE_LOGOUT } from "../../src/gateway/api/account";
import { loadConfig } from "../../src/service/config";
import { startRelayEnv, type RelayEnv } from "../relay/support";
import { expectFailure } from "../support/client";
import { DIALECTS } from "../support/databases";
import { useTestServer } from "../support/server";

const EXPIRED = "Unauthorized, not logged in or the session has expired";

/** The replies whose headers are checked: the console, /api (success, refusal, unknown path) and /v1 (both ways in). */
async function repliesOf(r: RelayEnv): Promise<[string, Response][]> {
  const chat = (path: string) =>
    fetch(`${r.s.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "test-chat", messages: [{ role: "user", content: "hi" }] }),
    });
  return [
    ["the console's page", await fetch(`${r.s.url}/`)],
    ["a console route", await fetch(`${r.s.url}/token`)],
    ["GET /api/status", await fetch(`${r.s.url}/api/status`)],
    ["a refused /api call", await fetch(`${r.s.url}/api/user/self`)],
    ["an unknown /api path", await fetch(`${r.s.url}/api/nope`)],
    ["POST /v1/chat/completions", await chat("/v1/chat/completions")],
    ["a refused /v1 call", await fetch(`${r.s.url}/v1/chat/completions`, { method: "POST", body: "{}" })],
    ["GET /v1/models", await fetch(`${r.s.url}/v1/models`, { headers: { authorization: `Bearer ${r.key}` } })],
  ];
}

describe.each(DIALECTS)("browser hardening on %s", (dialect) => {
  describe("by default no page may frame the console, and no reply is sniffed", () => {
    let r: RelayEnv;
    beforeAll(async () => {
      r = await startRelayEnv(dialect);
      await r.setPrices({ "test-chat": 1 });
      await r.addChannel({ models: "test-chat" });
    });
    afterAll(() => r.stop());

    test("X-Content-Type-Options: nosniff and X-Frame-Options: DENY on console, /api and /v1 replies", async () => {
      for (const [what, reply] of await repliesOf(r)) {
        const seen = {
          what,
          nosniff: reply.headers.get("x-content-type-options"),
          frame: reply.headers.get("x-frame-options"),
        };
        expect(seen).toEqual({ what, nosniff: "nosniff", frame: "DENY" });
      }
    });

    test("the console's Content-Security-Policy says frame-ancestors 'none'", async () => {
      const policy = (await fetch(`${r.s.url}/`)).headers.get("content-security-policy") ?? "";
      expect(policy.split("; ")).toContain("frame-ancestors 'none'");
    });
  });

  describe("CONSOLE_FRAME_ANCESTORS names the origins allowed to frame the console", () => {
    let r: RelayEnv;
    beforeAll(async () => {
      r = await startRelayEnv(dialect, { CONSOLE_FRAME_ANCESTORS: "https://portal.example.com 'self'" });
    });
    afterAll(() => r.stop());

    test("the console's policy names them, and X-Frame-Options (which cannot) is left off; nosniff stays", async () => {
      const page = await fetch(`${r.s.url}/`);
      expect((page.headers.get("content-security-policy") ?? "").split("; ")).toContain(
        "frame-ancestors https://portal.example.com 'self'",
      );
      for (const [, reply] of await repliesOf(r)) {
        expect([reply.headers.get("x-frame-options"), reply.headers.get("x-content-type-options")]).toEqual([
          null,
          "nosniff",
        ]);
      }
    });
  });

  describe("sign-out", () => {
    const s = useTestServer(dialect);

    test("POST /api/user/logout ends the session", async () => {
      const user = await s.newUser();
      const cookie = user.cookie;
      expect((await user.post("/api/user/logout")).body).toEqual({ success: true, message: "logged out", data: null });
      user.cookie = cookie;
      expectFailure(await user.get("/api/user/self"), 401, EXPIRED);
    });

    test("a GET /api/user/logout from another site's page (a link, an image) is refused and the session lives on", async () => {
      const user = await s.newUser();
      const cookie = user.cookie;
      expectFailure(await user.get("/api/user/logout", { "sec-fetch-site": "cross-site" }), 403, CROSS_SITE_LOGOUT);
      expectFailure(await user.get("/api/user/logout", { "sec-fetch-site": "same-site" }), 403, CROSS_SITE_LOGOUT);
      expectFailure(await user.get("/api/user/logout", { origin: "https://evil.example" }), 403, CROSS_SITE_LOGOUT);
      expectFailure(
        await user.post("/api/user/logout", {}, { origin: "https://evil.example" }),
        403,
        CROSS_SITE_LOGOUT,
      );
      expect(user.cookie).toBe(cookie);
      expect((await user.get("/api/user/self")).body.success).toBe(true);
    });

    test("the dialect's GET /api/user/logout still works from the site's own pages", async () => {
      const user = await s.newUser();
      const cookie = user.cookie;
      const sameOrigin = { "sec-fetch-site": "same-origin", origin: s.url };
      expect((await user.get("/api/user/logout", sameOrigin)).body.success).toBe(true);
      user.cookie = cookie;
      expectFailure(await user.get("/api/user/self"), 401, EXPIRED);
    });
  });
});

describe("CONSOLE_FRAME_ANCESTORS setting", () => {
  test("an entry that is not an origin stops the start with a message naming it", () => {
    expect(() => loadConfig({ CONSOLE_FRAME_ANCESTORS: "https://portal.example.com/path" })).toThrow(
      /CONSOLE_FRAME_ANCESTORS: "https:\/\/portal.example.com\/path"/,
    );
    expect(() => loadConfig({ CONSOLE_FRAME_ANCESTORS: "*" })).toThrow(/CONSOLE_FRAME_ANCESTORS/);
    expect(loadConfig({ CONSOLE_FRAME_ANCESTORS: "https://a.example, http://b.example:8080" }).frameAncestors).toEqual([
      "https://a.example",
      "http://b.example:8080",
    ]);
  });
});
