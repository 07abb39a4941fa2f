import { describe, expect, test } from "bun:test";
import { keyedHash } from "../../src/service/crypto";
import { expectFailure, type ApiClient } from "../support/client";
import { DIALECTS } from "../support/databases";
import { setUserFields, userRow } from "../support/rows";
import { useTestServer } from "../support/server";

// Management auth (compat §2.1): a session cookie or `Authorization: <system access token>`, the mandatory
// New-Api-User header naming that same user, then status and role.
describe.each(DIALECTS)("management auth on %s", (dialect) => {
  const s = useTestServer(dialect);

  /** The same user's session, but a client that does not send New-Api-User. */
  const withoutUserHeader = (user: ApiClient) => Object.assign(s.client(), { cookie: user.cookie });
  const tokenOf = async (user: ApiClient): Promise<string> => (await user.get("/api/user/token")).body.data;

  describe("a session cookie or an access token is required", () => {
    test("with neither: 401 'Unauthorized, not logged in and no access token provided'", async () => {
      const anonymous = s.client();
      for (const reply of [
        await anonymous.get("/api/user/self"),
        await anonymous.put("/api/user/self", { display_name: "x" }),
        await anonymous.get("/api/group/"),
        await anonymous.get("/api/user/self", { "new-api-user": "1" }),
      ]) {
        expectFailure(reply, 401, "Unauthorized, not logged in and no access token provided");
      }
    });

    test("an unknown or signed-out session is refused with 401", async () => {
      const user = await s.newUser();
      const cookie = user.cookie;
      await user.get("/api/user/logout");
      const replayed = Object.assign(s.client(), { cookie, userId: user.userId });
      expectFailure(
        await replayed.get("/api/user/self"),
        401,
        "Unauthorized, not logged in or the session has expired",
      );
      const forged = Object.assign(s.client(), { cookie: `session=${"A".repeat(43)}`, userId: user.userId });
      expectFailure(await forged.get("/api/user/self"), 401, "Unauthorized, not logged in or the session has expired");
    });

    test("a session cookie that cannot be decoded counts as no cookie: 401, not a server error", async () => {
      const user = await s.newUser();
      const garbled = Object.assign(s.client(), { cookie: "session=%E0%A4%A", userId: user.userId });
      expectFailure(
        await garbled.get("/api/user/self"),
        401,
        "Unauthorized, not logged in and no access token provided",
      );
      garbled.authorization = await tokenOf(user);
      expect((await garbled.get("/api/user/self")).body.data.id).toBe(user.userId);
      expect((await garbled.get("/api/user/logout")).status).toBe(200);
    });

    test("an invalid access token is refused with 401", async () => {
      const user = await s.newUser();
      const script = user.withToken("not-a-real-token-00000000000000");
      expectFailure(await script.get("/api/user/self"), 401, "Unauthorized, the access token is invalid");
    });
  });

  describe("New-Api-User must name the signed-in user", () => {
    test("missing: 401 'Unauthorized, New-Api-User header not provided' (session and access token alike)", async () => {
      const user = await s.newUser();
      const token = await tokenOf(user);
      expectFailure(
        await withoutUserHeader(user).get("/api/user/self"),
        401,
        "Unauthorized, New-Api-User header not provided",
      );
      const script = Object.assign(s.client(), { authorization: token });
      expectFailure(await script.get("/api/user/self"), 401, "Unauthorized, New-Api-User header not provided");
      expectFailure(
        await user.get("/api/user/self", { "new-api-user": " " }),
        401,
        "Unauthorized, New-Api-User header not provided",
      );
    });

    test("not an integer: 401 'Unauthorized, New-Api-User header format error'", async () => {
      const user = await s.newUser();
      for (const claimed of ["abc", "1.5", `${user.userId}x`]) {
        const reply = await user.get("/api/user/self", { "new-api-user": claimed });
        expectFailure(reply, 401, "Unauthorized, New-Api-User header format error");
      }
    });

    test("another user's id: 401 'Unauthorized, New-Api-User does not match logged in user'", async () => {
      const user = await s.newUser();
      const other = await s.newUser();
      const token = await tokenOf(user);
      const viaSession = await user.get("/api/user/self", { "new-api-user": String(other.userId) });
      expectFailure(viaSession, 401, "Unauthorized, New-Api-User does not match logged in user");
      const viaToken = await user.withToken(token).get("/api/user/self", { "new-api-user": String(other.userId) });
      expectFailure(viaToken, 401, "Unauthorized, New-Api-User does not match logged in user");
    });
  });

  describe("status and role are checked after identity", () => {
    test("an ordinary user on an admin route (GET /api/group/): 200 success:false 'Unauthorized, insufficient privileges'", async () => {
      const user = await s.newUser();
      expectFailure(await user.get("/api/group/"), 200, "Unauthorized, insufficient privileges");
      expect((await s.root.get("/api/group/")).body.success).toBe(true);
    });

    test("a banned user: 200 success:false 'User has been banned' (session and access token alike)", async () => {
      const user = await s.newUser();
      const token = await tokenOf(user);
      await setUserFields(s.ctx, user.userId!, { status: 2 });
      expectFailure(await user.get("/api/user/self"), 200, "User has been banned");
      expectFailure(await user.withToken(token).get("/api/user/self"), 200, "User has been banned");
    });
  });

  describe("GET /api/user/token: the system access token", () => {
    test("returns a new 32-character token", async () => {
      const reply = await (await s.newUser()).get("/api/user/token");
      expect(reply.body.success).toBe(true);
      expect(reply.body.data).toMatch(/^[0-9A-Za-z]{32}$/);
    });

    test("`Authorization: <token>` or `Bearer <token>` plus New-Api-User authenticates without a cookie", async () => {
      const user = await s.newUser();
      const token = await tokenOf(user);
      for (const authorization of [token, `Bearer ${token}`]) {
        const reply = await user.withToken(authorization).get("/api/user/self");
        expect(reply.status).toBe(200);
        expect(reply.body.data).toMatchObject({ id: user.userId, username: user.username });
      }
    });

    test("regenerating invalidates the previous token", async () => {
      const user = await s.newUser();
      const first = await tokenOf(user);
      const second = await tokenOf(user);
      expect(second).not.toBe(first);
      expectFailure(
        await user.withToken(first).get("/api/user/self"),
        401,
        "Unauthorized, the access token is invalid",
      );
      expect((await user.withToken(second).get("/api/user/self")).body.success).toBe(true);
    });

    test("the database stores only a keyed hash of the token", async () => {
      const user = await s.newUser();
      const token = await tokenOf(user);
      const row = await userRow(s.ctx, user.userId!);
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row.access_token_hash).toBe(keyedHash(s.ctx.secret, token));
      expect(JSON.stringify((await user.get("/api/user/self")).body)).not.toContain(token);
    });

    test("a stale session cookie does not hide a valid token (the cookie is tried first, then the token)", async () => {
      const user = await s.newUser();
      const token = await tokenOf(user);
      const script = Object.assign(user.withToken(token), { cookie: `session=${"B".repeat(43)}` });
      const reply = await script.get("/api/user/self");
      expect(reply.status).toBe(200);
      expect(reply.body.data.id).toBe(user.userId);
    });
  });
});
