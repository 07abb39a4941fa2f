import { describe, expect, test } from "bun:test";
import { WRONG_CREDENTIALS } from "../../src/service/accounts/login";
import { bootstrapRoot } from "../../src/service/accounts/setup";
import { NOT_INITIALIZED } from "../../src/gateway/app";
import { expectFailure } from "../support/client";
import { DIALECTS } from "../support/databases";
import { countRows } from "../support/rows";
import { ROOT_PASSWORD, useTestServer } from "../support/server";

const NEEDS_SETUP = { INITIAL_ROOT_PASSWORD: "" };
const ALREADY = "the system is already initialized";
const valid = { username: "admin", password: "admin-pass-1", confirmPassword: "admin-pass-1" };

// First-run setup (compat §3.1), except that until the root exists the rest of /api answers 503.
describe.each(DIALECTS)("first-run setup on %s", (dialect) => {
  describe("without INITIAL_ROOT_PASSWORD, before setup", () => {
    const s = useTestServer(dialect, NEEDS_SETUP);

    test("no user exists: no factory-default root", async () => {
      expect(await countRows(s.ctx, "users")).toBe(0);
      expect(await countRows(s.ctx, "setups")).toBe(0);
    });

    test("GET /api/setup reports {status:false, root_init:false, database_type}", async () => {
      const reply = await s.client().get("/api/setup");
      expect(reply.body).toEqual({
        success: true,
        message: "",
        data: { status: false, root_init: false, database_type: dialect },
      });
    });

    test("every /api call except /api/status and /api/setup answers 503 with the not-initialized message", async () => {
      const c = s.client();
      for (const reply of [
        await c.post("/api/user/login", { username: "root", password: "123456" }),
        await c.post("/api/user/register", { username: "early", password: "password123" }),
        await c.get("/api/user/self"),
        await c.get("/api/user/logout"),
        await c.get("/api/group/"),
        await c.get("/api/option/"),
        await c.get("/api/nope"),
      ]) {
        expectFailure(reply, 503, NOT_INITIALIZED);
      }
      const status = await c.get("/api/status");
      expect(status.status).toBe(200);
      expect(status.body.data.setup).toBe(false);
      expect(await countRows(s.ctx, "users")).toBe(0);
    });

    test("POST /api/setup validates and changes nothing on refusal", async () => {
      const c = s.client();
      const refusals: [Record<string, unknown>, string][] = [
        [{ ...valid, username: "" }, "username and password are required"],
        [{ ...valid, password: "", confirmPassword: "" }, "username and password are required"],
        [{ ...valid, username: "a".repeat(13) }, "username must be at most 12 characters"],
        [{ ...valid, confirmPassword: "admin-pass-2" }, "the two passwords do not match"],
        [{ ...valid, password: "short12", confirmPassword: "short12" }, "password must be 8 to 20 characters"],
      ];
      for (const [body, message] of refusals) {
        expectFailure(await c.post("/api/setup", { ...body, SelfUseModeEnabled: true }), 200, message);
      }
      expect(await countRows(s.ctx, "users")).toBe(0);
      expect(await countRows(s.ctx, "setups")).toBe(0);
      expect(s.ctx.options.bool("SelfUseModeEnabled")).toBe(false);
      expectFailure(await c.get("/api/user/self"), 503, NOT_INITIALIZED);
    });
  });

  describe("POST /api/setup creates the root account, once", () => {
    const s = useTestServer(dialect, NEEDS_SETUP);

    test("success creates root (role 100) who can sign in, and saves the wizard's switches", async () => {
      const reply = await s.client().post("/api/setup", { ...valid, SelfUseModeEnabled: true, DemoSiteEnabled: false });
      expect(reply.body).toEqual({ success: true, message: "system initialized", data: null });
      const rows = await s.ctx.db.k.selectFrom("users").selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        username: "admin",
        role: 100,
        status: 1,
        display_name: "Root User",
        quota: 100_000_000,
      });
      expect(await countRows(s.ctx, "setups")).toBe(1);
      expect(s.ctx.options.bool("SelfUseModeEnabled")).toBe(true);

      const admin = s.client();
      expect((await admin.login("admin", "admin-pass-1")).body.data).toMatchObject({ username: "admin", role: 100 });
      expect((await admin.get("/api/group/")).body.success).toBe(true);
    });

    test("afterwards GET /api/setup reports status:true and /api works", async () => {
      expect((await s.client().get("/api/setup")).body.data).toEqual({
        status: true,
        root_init: true,
        database_type: dialect,
      });
      expect((await s.client().get("/api/status")).body.data.setup).toBe(true);
      expectFailure(
        await s.client().get("/api/user/self"),
        401,
        "Unauthorized, not logged in and no access token provided",
      );
    });

    test("a second POST /api/setup is refused", async () => {
      const again = await s.client().post("/api/setup", { ...valid, username: "intruder" });
      expectFailure(again, 200, ALREADY);
      expect(await countRows(s.ctx, "users")).toBe(1);
      expectFailure(await s.client().login("intruder", valid.password), 200, WRONG_CREDENTIALS);
    });
  });

  describe("concurrent POST /api/setup", () => {
    const s = useTestServer(dialect, NEEDS_SETUP);

    test("exactly one of several simultaneous setups creates a root", async () => {
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) => s.client().post("/api/setup", { ...valid, username: `root${i}` })),
      );
      const messages = replies.map((r) => r.body.message).sort();
      expect(messages).toEqual(["system initialized", ...Array(5).fill(ALREADY)]);
      expect(await countRows(s.ctx, "users")).toBe(1);
      expect(await countRows(s.ctx, "setups")).toBe(1);
    });
  });

  describe("with INITIAL_ROOT_PASSWORD", () => {
    const s = useTestServer(dialect);

    test("`root` exists at start and setup reports status:true", async () => {
      expect((await s.client().get("/api/setup")).body.data).toEqual({
        status: true,
        root_init: true,
        database_type: dialect,
      });
      const rows = await s.ctx.db.k.selectFrom("users").select(["username", "role"]).execute();
      expect(rows).toEqual([{ username: "root", role: 100 }]);
      expect((await s.client().login("root", ROOT_PASSWORD)).body.success).toBe(true);
      expectFailure(await s.client().post("/api/setup", valid), 200, ALREADY);
    });

    test("there is no root/123456", async () => {
      expectFailure(await s.client().login("root", "123456"), 200, WRONG_CREDENTIALS);
    });

    test("a restart finds the root and creates no other", async () => {
      expect(await bootstrapRoot(s.ctx)).toBe("exists");
      expect(await countRows(s.ctx, "users")).toBe(1);
      expect(await countRows(s.ctx, "setups")).toBe(1);
    });
  });
});
