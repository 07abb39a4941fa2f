import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { ROOT_PASSWORD, startTestServer, uniqueName, type TestServer } from "../support/server";

describe.each(DIALECTS)("accounts on %s", (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s.stop());

  describe("POST /api/user/register", () => {
    test("creates an ordinary user in the default group who can then sign in", async () => {
      const c = s.client();
      const name = uniqueName();
      const reg = await c.post("/api/user/register", {
        username: name,
        password: "password123",
        password2: "password123",
      });
      expect(reg.body).toEqual({ success: true, message: "registration succeeded", data: null });
      const login = await c.login(name, "password123");
      expect(login.body.success).toBe(true);
      expect(login.body.data).toMatchObject({ username: name, role: 1, status: 1, group: "default" });
      const self = await c.get("/api/user/self");
      expect(self.body.data.aff_code).toMatch(/^[0-9A-Za-z]{6}$/);
      expect(self.body.data).not.toHaveProperty("password");
      expect(self.body.data).not.toHaveProperty("access_token_hash");
    });

    test("username is required and at most 12 characters", async () => {
      const c = s.client();
      expect((await c.post("/api/user/register", { password: "password123" })).body).toEqual({
        success: false,
        message: "username and password are required",
      });
      const long = await c.post("/api/user/register", { username: "a".repeat(13), password: "password123" });
      expect(long.body.message).toBe("username must be at most 12 characters");
    });

    test("password must be 8 to 20 characters and equal password2 when sent", async () => {
      const c = s.client();
      const short = await c.post("/api/user/register", { username: uniqueName(), password: "short" });
      expect(short.body.message).toBe("password must be 8 to 20 characters");
      const long = await c.post("/api/user/register", { username: uniqueName(), password: "x".repeat(21) });
      expect(long.body.message).toBe("password must be 8 to 20 characters");
      const mismatch = await c.post("/api/user/register", {
        username: uniqueName(),
        password: "password123",
        password2: "password124",
      });
      expect(mismatch.body.message).toBe("the two passwords do not match");
    });

    test("a taken username, even of a deleted user, is refused", async () => {
      const name = uniqueName();
      const user = await s.newUser(name);
      expect((await user.delete("/api/user/self")).body.success).toBe(true);
      const again = await s.client().post("/api/user/register", { username: name, password: "password123" });
      expect(again.body).toEqual({ success: false, message: "username already exists or has been deleted" });
    });

    test("RegisterEnabled and PasswordRegisterEnabled are respected", async () => {
      await s.ctx.options.set("RegisterEnabled", false);
      const off = await s.client().post("/api/user/register", { username: uniqueName(), password: "password123" });
      expect(off.body.message).toBe("new user registration is disabled by the administrator");
      await s.ctx.options.set("RegisterEnabled", true);
      await s.ctx.options.set("PasswordRegisterEnabled", false);
      const pwOff = await s.client().post("/api/user/register", { username: uniqueName(), password: "password123" });
      expect(pwOff.body.success).toBe(false);
      expect(pwOff.body.message).toContain("registration with a password is disabled");
      await s.ctx.options.set("PasswordRegisterEnabled", true);
    });

    test("QuotaForNewUser is granted and leaves a system log row", async () => {
      await s.ctx.options.set("QuotaForNewUser", 1234);
      const c = await s.newUser();
      await s.ctx.options.set("QuotaForNewUser", 0);
      expect((await c.get("/api/user/self")).body.data.quota).toBe(1234);
      const rows = await s.ctx.db.k.selectFrom("logs").selectAll().where("user_id", "=", c.userId!).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ type: 4, quota: 1234 });
      expect(rows[0]!.content).toContain("new user registration bonus");
    });

    test("an inviter's aff_code links inviter_id and grants both invite rewards", async () => {
      await s.ctx.options.set("QuotaForInviter", 700);
      await s.ctx.options.set("QuotaForInvitee", 300);
      const inviter = await s.newUser();
      const code = (await inviter.get("/api/user/aff")).body.data;
      const name = uniqueName();
      const invitee = s.client();
      await invitee.post("/api/user/register", { username: name, password: "password123", aff_code: code });
      await invitee.login(name, "password123");
      await s.ctx.options.set("QuotaForInviter", 0);
      await s.ctx.options.set("QuotaForInvitee", 0);
      const me = (await invitee.get("/api/user/self")).body.data;
      expect(me).toMatchObject({ inviter_id: inviter.userId, quota: 300 });
      const them = (await inviter.get("/api/user/self")).body.data;
      expect(them).toMatchObject({ aff_count: 1, aff_quota: 700, aff_history_quota: 700, quota: 0 });
      const logs = await s.ctx.db.k
        .selectFrom("logs")
        .select(["user_id", "quota"])
        .where("user_id", "in", [inviter.userId!, invitee.userId!])
        .execute();
      expect(logs.map((l) => [l.user_id, l.quota]).sort()).toEqual(
        [
          [inviter.userId!, 700],
          [invitee.userId!, 300],
        ].sort(),
      );
    });
  });

  describe("POST /api/user/login", () => {
    test("accepts the email as the username", async () => {
      const name = uniqueName();
      const email = `${name}@example.com`;
      await s.client().post("/api/user/register", { username: name, password: "password123", email });
      const c = s.client();
      expect((await c.login(email, "password123")).body.data.username).toBe(name);
    });

    test("a wrong password, an unknown user and a banned user read the same", async () => {
      const victim = await s.newUser();
      await s.root.post("/api/user/manage", { id: victim.userId, action: "disable" });
      const banned = await s.client().login(victim.username, "password123");
      const wrong = await s.client().login("root", "wrong-password");
      const unknown = await s.client().login("nobody-here", "password123");
      for (const r of [banned, wrong, unknown]) {
        expect(r.body).toEqual({
          success: false,
          message: "username or password is incorrect, or the user has been banned",
        });
      }
    });

    test("sets an HttpOnly SameSite session cookie", async () => {
      const reply = await s.client().login("root", ROOT_PASSWORD);
      const cookie = reply.headers.get("set-cookie")!;
      expect(cookie).toMatch(/^session=[0-9A-Za-z]{43}; /);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Lax");
    });

    test("PasswordLoginEnabled off refuses password sign-in", async () => {
      await s.ctx.options.set("PasswordLoginEnabled", false);
      const r = await s.client().login("root", ROOT_PASSWORD);
      await s.ctx.options.set("PasswordLoginEnabled", true);
      expect(r.body.success).toBe(false);
      expect(r.body.message).toContain("password sign-in is disabled");
    });

    test("username and password are both needed", async () => {
      const r = await s.client().post("/api/user/login", { username: "root" });
      expect(r.body).toEqual({ success: false, message: "username and password are required" });
    });
  });

  describe("GET /api/user/logout", () => {
    test("revokes the session at once", async () => {
      const c = await s.newUser();
      const stolenCookie = c.cookie;
      expect((await c.get("/api/user/logout")).body.success).toBe(true);
      c.cookie = stolenCookie;
      const after = await c.get("/api/user/self");
      expect(after.status).toBe(401);
      expect(after.body.success).toBe(false);
    });
  });
});
