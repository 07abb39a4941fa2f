import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { applyChange, CHANGED_MEANWHILE } from "../../src/service/users/admin-change";
import { expectFailure, type ApiClient, type Reply } from "../support/client";
import { DIALECTS } from "../support/databases";
import { countRows, logsOf, userRow } from "../support/rows";
import { startTestServer, uniqueName, type TestServer } from "../support/server";

const NO_PERMISSION = "no permission for a user of equal or higher role";
const INSUFFICIENT = "Unauthorized, insufficient privileges";
const DELETED = "the user has been deleted";
const NOT_FOUND = "user not found";
const BAD_ID = "id must be a positive integer";

type Who = "root" | "admin" | "common";
type Outcome = string | { role: number; status: number };

/** Refusals of the management API are HTTP 200 with success:false. */
const refused = (reply: Reply, message: string) => expectFailure(reply, 200, message);

function expectNoSecrets(reply: Reply): void {
  const text = JSON.stringify(reply.body);
  expect(text).not.toContain('"password"');
  expect(text).not.toContain("access_token");
}

describe.each(DIALECTS)("user administration on %s", (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s.stop());

  const manage = (by: ApiClient, id: unknown, action: unknown, extra: object = {}) =>
    by.post("/api/user/manage", { id, action, ...extra });
  const update = (by: ApiClient, id: unknown, fields: object) => by.put("/api/user/", { id, ...fields });

  async function newAdmin(): Promise<ApiClient> {
    const user = await s.newUser();
    expect((await manage(s.root, user.userId, "promote")).body.data).toEqual({ status: 1, role: 10 });
    return user;
  }
  const clientOf = (who: Who): Promise<ApiClient> =>
    who === "root" ? Promise.resolve(s.root) : who === "admin" ? newAdmin() : s.newUser();
  async function targetOf(actor: ApiClient, who: Who | "self"): Promise<number> {
    if (who === "self") return actor.userId!;
    return who === "root" ? s.root.userId! : (await clientOf(who)).userId!;
  }
  const stateOf = async (id: number) => {
    const { role, status, deleted_at, access_token_hash } = await userRow(s.ctx, id);
    return { role, status, deleted_at, access_token_hash };
  };
  const manageLogs = async (id: number) => (await logsOf(s.ctx, id)).filter((row) => row.type === 3);

  describe("every route needs an administrator", () => {
    test("an ordinary user gets 'Unauthorized, insufficient privileges' and nothing changes", async () => {
      const user = await s.newUser();
      const victim = await s.newUser();
      const before = await userRow(s.ctx, victim.userId!);
      for (const reply of [
        await user.get("/api/user/"),
        await user.get("/api/user/search?keyword=root"),
        await user.get(`/api/user/${victim.userId}`),
        await user.post("/api/user/", { username: uniqueName(), password: "password123" }),
        await update(user, victim.userId, { quota: 999 }),
        await manage(user, victim.userId, "disable"),
        await manage(user, user.userId, "promote"),
      ]) {
        refused(reply, INSUFFICIENT);
      }
      expect(await userRow(s.ctx, victim.userId!)).toEqual(before);
    });
  });

  describe("GET /api/user/ (paged list)", () => {
    test("answers items, page, page_size and total; newest first", async () => {
      for (let i = 0; i < 3; i++) await s.newUser();
      const first = await s.root.get("/api/user/?p=1&page_size=2");
      expect(first.body.success).toBe(true);
      const { items, page, page_size, total } = first.body.data;
      expect({ page, page_size, total }).toEqual({ page: 1, page_size: 2, total: await countRows(s.ctx, "users") });
      expect(items).toHaveLength(2);
      expect(items[0].id).toBeGreaterThan(items[1].id);
      const second = (await s.root.get("/api/user/?p=2&page_size=2")).body.data;
      expect(second.page).toBe(2);
      expect(second.items[0].id).toBeLessThan(items[1].id);
    });

    test("page_size is capped at 100 and defaults to 10", async () => {
      expect((await s.root.get("/api/user/?page_size=1000")).body.data.page_size).toBe(100);
      expect((await s.root.get("/api/user/")).body.data.page_size).toBe(10);
    });

    test("never carries password hashes or access tokens, even root's", async () => {
      const token = (await s.root.get("/api/user/token")).body.data;
      const admin = await newAdmin();
      const reply = await admin.get("/api/user/?page_size=100");
      expect(reply.body.data.items.some((u: any) => u.id === s.root.userId)).toBe(true);
      expectNoSecrets(reply);
      expect(JSON.stringify(reply.body)).not.toContain(token);
    });
  });

  describe("GET /api/user/search", () => {
    test("finds by id, username and email", async () => {
      const user = await s.newUser();
      const email = `${user.username}@example.com`;
      expect((await update(s.root, user.userId, { email })).body.success).toBe(true);
      for (const keyword of [String(user.userId), user.username, email]) {
        const reply = await s.root.get(`/api/user/search?keyword=${encodeURIComponent(keyword)}`);
        expect(reply.body.data.items.map((u: any) => u.id)).toContain(user.userId);
        expectNoSecrets(reply);
      }
      const byName = (await s.root.get(`/api/user/search?keyword=${user.username}`)).body.data;
      expect(byName).toMatchObject({ total: 1, page: 1, page_size: 10 });
    });

    test("filters by group", async () => {
      const user = await s.newUser();
      await update(s.root, user.userId, { group: "vip" });
      const inVip = (await s.root.get(`/api/user/search?keyword=${user.username}&group=vip`)).body.data;
      expect(inVip.items.map((u: any) => u.id)).toEqual([user.userId]);
      const inDefault = (await s.root.get(`/api/user/search?keyword=${user.username}&group=default`)).body.data;
      expect(inDefault).toMatchObject({ items: [], total: 0 });
    });

    test("pages like the list", async () => {
      const reply = await s.root.get("/api/user/search?keyword=&p=1&page_size=500");
      expect(reply.body.data.page_size).toBe(100);
      expect(reply.body.data.total).toBe(await countRows(s.ctx, "users"));
    });
  });

  describe("GET /api/user/:id", () => {
    test("answers the user record without secrets", async () => {
      const user = await s.newUser();
      await user.get("/api/user/token");
      const reply = await s.root.get(`/api/user/${user.userId}`);
      expect(reply.body.success).toBe(true);
      expect(reply.body.data).toMatchObject({
        id: user.userId,
        username: user.username,
        role: 1,
        status: 1,
        DeletedAt: null,
      });
      expectNoSecrets(reply);
    });

    test("an admin sees only users of a lower role; root sees anyone", async () => {
      const admin = await newAdmin();
      const other = await newAdmin();
      const common = await s.newUser();
      expect((await admin.get(`/api/user/${common.userId}`)).body.data.id).toBe(common.userId);
      for (const id of [other.userId, admin.userId, s.root.userId])
        refused(await admin.get(`/api/user/${id}`), NO_PERMISSION);
      for (const id of [other.userId, s.root.userId])
        expect((await s.root.get(`/api/user/${id}`)).body.data.id).toBe(id!);
    });

    test("unknown id: 'user not found'; malformed id: a clear refusal", async () => {
      refused(await s.root.get("/api/user/987654321"), NOT_FOUND);
      refused(await s.root.get("/api/user/abc"), BAD_ID);
      refused(await s.root.get("/api/user/0"), BAD_ID);
    });
  });

  describe("POST /api/user/ (create)", () => {
    test("creates an ordinary user who can sign in", async () => {
      const name = uniqueName();
      const reply = await s.root.post("/api/user/", {
        username: name,
        display_name: "Made By Root",
        password: "password123",
      });
      expect(reply.body).toMatchObject({ success: true, message: "user created" });
      expect(reply.body.data).toMatchObject({ username: name, display_name: "Made By Root", role: 1, status: 1 });
      expectNoSecrets(reply);
      expect((await s.client().login(name, "password123")).body.success).toBe(true);
    });

    test("an admin creates ordinary users too; the display name defaults to the username", async () => {
      const admin = await newAdmin();
      const name = uniqueName();
      const reply = await admin.post("/api/user/", { username: name, password: "password123" });
      expect(reply.body.data).toMatchObject({ username: name, display_name: name, role: 1 });
    });

    test("username and password are required, by the registration rules", async () => {
      const before = await countRows(s.ctx, "users");
      refused(await s.root.post("/api/user/", { password: "password123" }), "username and password are required");
      refused(await s.root.post("/api/user/", { username: uniqueName() }), "username and password are required");
      refused(
        await s.root.post("/api/user/", { username: uniqueName(), password: "short" }),
        "password must be 8 to 20 characters",
      );
      refused(
        await s.root.post("/api/user/", { username: "a".repeat(13), password: "password123" }),
        "username must be at most 12 characters",
      );
      refused(await s.root.post("/api/user/", { username: 42, password: "password123" }), "username must be a string");
      refused(
        await s.root.post("/api/user/", {
          username: uniqueName(),
          display_name: "d".repeat(21),
          password: "password123",
        }),
        "display name must be at most 20 characters",
      );
      expect(await countRows(s.ctx, "users")).toBe(before);
    });

    test("a taken username, even of a deleted user, is refused", async () => {
      const deleted = await s.newUser();
      await manage(s.root, deleted.userId, "delete");
      for (const username of ["root", deleted.username]) {
        refused(
          await s.root.post("/api/user/", { username, password: "password123" }),
          "username already exists or has been deleted",
        );
      }
    });

    test("new users are ordinary: no admin or root can be created directly", async () => {
      const admin = await newAdmin();
      for (const role of [10, 100]) {
        for (const by of [admin, s.root]) {
          refused(
            await by.post("/api/user/", { username: uniqueName(), password: "password123", role }),
            "new users are created as ordinary users",
          );
        }
      }
    });
  });

  describe("PUT /api/user/ (update)", () => {
    test("changes profile fields and answers the record without secrets", async () => {
      const admin = await newAdmin();
      const user = await s.newUser();
      const email = `${user.username}@example.org`;
      const reply = await update(admin, user.userId, {
        display_name: "New Name",
        email,
        group: "vip",
        remark: "vip customer",
      });
      expect(reply.body).toMatchObject({ success: true, message: "user updated" });
      expect(reply.body.data).toMatchObject({ display_name: "New Name", email, group: "vip", remark: "vip customer" });
      expectNoSecrets(reply);
    });

    test("quota is the new balance; each change writes a manage log row with the difference", async () => {
      const admin = await newAdmin();
      const user = await s.newUser();
      const start = (await userRow(s.ctx, user.userId!)).quota;
      expect((await update(admin, user.userId, { quota: start + 5000 })).body.data.quota).toBe(start + 5000);
      expect((await update(admin, user.userId, { quota: String(start + 2000) })).body.data.quota).toBe(start + 2000);
      await update(admin, user.userId, { quota: start + 2000, remark: "same quota" });
      const rows = await manageLogs(user.userId!);
      expect(rows.map((row) => row.quota)).toEqual([5000, -3000]);
      expect(rows[0]!.content).toStartWith(`administrator ${admin.username} changed the quota from `);
      expect(rows[0]!.username).toBe(user.username);
    });

    test("a quota that is not an integer, or a negative balance, is refused and changes nothing", async () => {
      const user = await s.newUser();
      const before = await userRow(s.ctx, user.userId!);
      for (const quota of ["abc", 1.5, true, [1], "1e3"]) {
        refused(await update(s.root, user.userId, { quota, remark: "should not stick" }), "quota must be an integer");
      }
      refused(await update(s.root, user.userId, { quota: -1 }), "quota cannot be negative");
      expect(await userRow(s.ctx, user.userId!)).toEqual(before);
      expect(await manageLogs(user.userId!)).toEqual([]);
    });

    test("a new password signs the user out everywhere and clears the access token", async () => {
      const user = await s.newUser();
      const token = (await user.get("/api/user/token")).body.data;
      const reply = await update(s.root, user.userId, { password: "brand-new-pass" });
      expect(reply.body.success).toBe(true);
      expect((await user.get("/api/user/self")).status).toBe(401);
      expect((await user.withToken(token).get("/api/user/self")).body.success).toBe(false);
      expect((await userRow(s.ctx, user.userId!)).access_token_hash).toBeNull();
      expect((await s.client().login(user.username, "password123")).body.success).toBe(false);
      expect((await s.client().login(user.username, "brand-new-pass")).body.success).toBe(true);
    });

    test("an empty password is no change; a bad one is refused", async () => {
      const user = await s.newUser();
      expect((await update(s.root, user.userId, { password: "", remark: "kept" })).body.success).toBe(true);
      expect((await user.get("/api/user/self")).body.success).toBe(true);
      refused(await update(s.root, user.userId, { password: "short" }), "password must be 8 to 20 characters");
      refused(await update(s.root, user.userId, { password: "x".repeat(21) }), "password must be 8 to 20 characters");
    });

    test("a username stays unique, deleted users' names included", async () => {
      const user = await s.newUser();
      const deleted = await s.newUser();
      await manage(s.root, deleted.userId, "delete");
      for (const username of ["root", deleted.username]) {
        refused(await update(s.root, user.userId, { username }), "username already exists or has been deleted");
      }
      const renamed = uniqueName();
      expect((await update(s.root, user.userId, { username: renamed })).body.data.username).toBe(renamed);
      expect((await s.client().login(renamed, "password123")).body.success).toBe(true);
    });

    test("input errors get clear refusals", async () => {
      const user = await s.newUser();
      refused(await s.root.put("/api/user/", { quota: 5 }), BAD_ID);
      refused(await update(s.root, "abc", { quota: 5 }), BAD_ID);
      refused(await update(s.root, 987654321, { remark: "x" }), NOT_FOUND);
      refused(await update(s.root, user.userId, {}), "nothing to update");
      refused(await update(s.root, user.userId, { display_name: 7 }), "display_name must be a string");
      refused(await update(s.root, user.userId, { email: "not-an-email" }), "email is not valid");
      refused(await update(s.root, user.userId, { group: "no-such-group" }), "group no-such-group does not exist");
      refused(await update(s.root, user.userId, { role: 10 }), "use promote or demote to change the role");
      refused(await update(s.root, user.userId, { status: 2 }), "use enable or disable to change the status");
      expect((await update(s.root, user.userId, { role: 1, status: 1, remark: "same role" })).body.success).toBe(true);
    });

    test("an email in use by another user is refused", async () => {
      const [a, b] = [await s.newUser(), await s.newUser()];
      const email = `${a.username}@example.net`;
      await update(s.root, a.userId, { email });
      refused(await update(s.root, b.userId, { email }), "email is already in use");
      expect((await update(s.root, a.userId, { email })).body.success).toBe(true);
    });

    const UPDATE_MATRIX: [Who, Who | "self", boolean][] = [
      ["admin", "common", true],
      ["admin", "admin", false],
      ["admin", "self", false],
      ["admin", "root", false],
      ["root", "admin", true],
      ["root", "self", true],
    ];
    test.each(UPDATE_MATRIX)("%s edits %s: allowed %p", async (by, who, allowed) => {
      const actor = await clientOf(by);
      const id = await targetOf(actor, who);
      const before = await userRow(s.ctx, id);
      const reply = await update(actor, id, { remark: `edited by ${by}` });
      if (allowed) expect(reply.body.data.remark).toBe(`edited by ${by}`);
      else {
        refused(reply, NO_PERMISSION);
        expect(await userRow(s.ctx, id)).toEqual(before);
      }
    });
  });

  describe("POST /api/user/manage", () => {
    const ALREADY_ADMIN = "the user is already an administrator";
    const ALREADY_COMMON = "the user is already an ordinary user";
    type Row = [Who, string, Who | "self", Outcome];
    const ACTIONS = ["promote", "demote", "disable", "enable", "delete"];
    const ADMIN_REACHES_ONLY_LOWER = ACTIONS.flatMap((action) =>
      (["admin", "self", "root"] as const).map((who): Row => ["admin", action, who, NO_PERMISSION]),
    );
    const COMMON_IS_NO_ADMIN = ACTIONS.map((action): Row => ["common", action, "common", INSUFFICIENT]);
    const MATRIX: Row[] = [
      ["root", "promote", "common", { role: 10, status: 1 }],
      ["root", "promote", "admin", ALREADY_ADMIN],
      ["root", "promote", "self", ALREADY_ADMIN],
      ["admin", "promote", "common", "only the super administrator can promote users"],
      ["root", "demote", "admin", { role: 1, status: 1 }],
      ["root", "demote", "common", ALREADY_COMMON],
      ["root", "demote", "self", "the super administrator cannot be demoted"],
      ["admin", "demote", "common", ALREADY_COMMON],
      ["root", "disable", "admin", { role: 10, status: 2 }],
      ["root", "disable", "common", { role: 1, status: 2 }],
      ["root", "disable", "self", "the super administrator cannot be disabled"],
      ["admin", "disable", "common", { role: 1, status: 2 }],
      ["root", "enable", "self", { role: 100, status: 1 }],
      ["root", "enable", "admin", { role: 10, status: 1 }],
      ["admin", "enable", "common", { role: 1, status: 1 }],
      ["root", "delete", "admin", { role: 10, status: 1 }],
      ["root", "delete", "self", "the super administrator cannot be deleted"],
      ["admin", "delete", "common", { role: 1, status: 1 }],
      ...ADMIN_REACHES_ONLY_LOWER,
      ...COMMON_IS_NO_ADMIN,
      ["common", "promote", "self", INSUFFICIENT],
      ["common", "delete", "root", INSUFFICIENT],
    ];
    test.each(MATRIX)("%s %s %s → %p", async (by, action, who, outcome) => {
      const actor = await clientOf(by);
      const id = await targetOf(actor, who);
      const before = await stateOf(id);
      const reply = await manage(actor, id, action);
      if (typeof outcome === "string") {
        refused(reply, outcome);
        expect(await stateOf(id)).toEqual(before);
      } else {
        expect(reply.body).toEqual({ success: true, message: "operation succeeded", data: outcome });
      }
    });

    test("disable takes effect at once: sessions revoked, access token cleared; enable lets the user sign in again", async () => {
      const user = await s.newUser();
      const token = (await user.get("/api/user/token")).body.data;
      await manage(s.root, user.userId, "disable");
      expect((await user.get("/api/user/self")).status).toBe(401);
      expect((await user.withToken(token).get("/api/user/self")).body.success).toBe(false);
      expect((await s.client().login(user.username, "password123")).body.success).toBe(false);
      expect((await manage(s.root, user.userId, "enable")).body.data).toEqual({ status: 1, role: 1 });
      expect((await user.get("/api/user/self")).status).toBe(401);
      expect((await user.withToken(token).get("/api/user/self")).body.success).toBe(false);
      expect((await s.client().login(user.username, "password123")).body.success).toBe(true);
    });

    test("delete marks the row deleted, signs the user out and clears the access token", async () => {
      const user = await s.newUser();
      await user.get("/api/user/token");
      await manage(s.root, user.userId, "delete");
      const row = await userRow(s.ctx, user.userId!);
      expect(row.deleted_at).toBeGreaterThan(0);
      expect(row.access_token_hash).toBeNull();
      expect((await user.get("/api/user/self")).status).toBe(401);
      expect((await s.root.get(`/api/user/${user.userId}`)).body.data.DeletedAt).toBe(row.deleted_at);
    });

    test("a deleted user is final: every action and edit is refused", async () => {
      const user = await s.newUser();
      await manage(s.root, user.userId, "delete");
      const before = await userRow(s.ctx, user.userId!);
      for (const action of ACTIONS) {
        refused(await manage(s.root, user.userId, action), DELETED);
      }
      refused(await manage(s.root, user.userId, "add_quota", { value: 100, mode: "add" }), DELETED);
      refused(await update(s.root, user.userId, { quota: 100, remark: "back?" }), DELETED);
      expect(await userRow(s.ctx, user.userId!)).toEqual(before);
    });

    test("an unknown action, a malformed id or an unknown user is refused clearly", async () => {
      const user = await s.newUser();
      const unknown = "unknown action, expected one of promote, demote, disable, enable, delete, add_quota";
      for (const action of ["explode", "", undefined, 3, "constructor", "toString"])
        refused(await manage(s.root, user.userId, action), unknown);
      for (const id of [undefined, "abc", 0, -4, 1.5, "7; DROP TABLE users"])
        refused(await manage(s.root, id, "disable"), BAD_ID);
      refused(await manage(s.root, 987654321, "disable"), NOT_FOUND);
      expect((await stateOf(user.userId!)).status).toBe(1);
    });

    test("a change checked against a stale row is refused, so a concurrent promotion or delete is not overtaken", async () => {
      const user = await s.newUser();
      const stale = await userRow(s.ctx, user.userId!);
      const root = await userRow(s.ctx, s.root.userId!);
      await manage(s.root, user.userId, "promote");
      const disable = applyChange(s.ctx, root, stale, { patch: { status: 2 }, signOut: true });
      await expect(disable).rejects.toThrow(CHANGED_MEANWHILE);
      await manage(s.root, user.userId, "delete");
      const addQuota = applyChange(s.ctx, root, { ...stale, role: 10 }, { patch: {}, quotaDelta: 100 });
      await expect(addQuota).rejects.toThrow(CHANGED_MEANWHILE);
      expect(await stateOf(user.userId!)).toMatchObject({ role: 10, status: 1 });
      expect(await manageLogs(user.userId!)).toEqual([]);
    });

    test("a body that is not JSON is refused with 400", async () => {
      const reply = await s.root.post("/api/user/manage", "{not json");
      expect(reply.status).toBe(400);
      expect(reply.body.success).toBe(false);
    });

    describe("add_quota", () => {
      test("add, subtract and override each change the balance and log the difference", async () => {
        const user = await s.newUser();
        const start = (await userRow(s.ctx, user.userId!)).quota;
        await manage(s.root, user.userId, "add_quota", { value: 1000, mode: "add" });
        await manage(s.root, user.userId, "add_quota", { value: 400, mode: "subtract" });
        await manage(s.root, user.userId, "add_quota", { value: start + 50, mode: "override" });
        expect((await userRow(s.ctx, user.userId!)).quota).toBe(start + 50);
        expect((await manageLogs(user.userId!)).map((row) => row.quota)).toEqual([1000, -400, 50 - 600]);
      });

      test("refuses a bad value or mode and a balance below zero, changing nothing", async () => {
        const user = await s.newUser();
        const before = await userRow(s.ctx, user.userId!);
        refused(
          await manage(s.root, user.userId, "add_quota", { value: "lots", mode: "add" }),
          "value must be an integer",
        );
        refused(
          await manage(s.root, user.userId, "add_quota", { value: -5, mode: "add" }),
          "value must be a positive integer",
        );
        refused(
          await manage(s.root, user.userId, "add_quota", { value: 5, mode: "double" }),
          "mode must be add, subtract or override",
        );
        refused(
          await manage(s.root, user.userId, "add_quota", { value: before.quota + 1, mode: "subtract" }),
          "quota cannot be negative",
        );
        refused(
          await manage(s.root, user.userId, "add_quota", { value: -1, mode: "override" }),
          "quota cannot be negative",
        );
        expect(await userRow(s.ctx, user.userId!)).toEqual(before);
        expect(await manageLogs(user.userId!)).toEqual([]);
      });

      test("an admin cannot add quota to themselves or to another admin", async () => {
        const admin = await newAdmin();
        const other = await newAdmin();
        for (const id of [admin.userId, other.userId]) {
          refused(await manage(admin, id, "add_quota", { value: 1000, mode: "add" }), NO_PERMISSION);
        }
      });
    });
  });
});
