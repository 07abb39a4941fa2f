import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { allowSlowTests, cliDatabase, expectRefusal, type CliDatabase } from "./support";

allowSlowTests();

let db: CliDatabase;
beforeAll(async () => (db = await cliDatabase()));
afterAll(() => db.drop());

const passwordHash = (username: string) => {
  const sqlite = new Database(db.env.SQLITE_PATH!, { readonly: true });
  const row = sqlite.query("SELECT password FROM users WHERE username = ?").get(username) as { password: string };
  sqlite.close();
  return row.password;
};

const UNSEEN = "username must not contain control, zero-width, bidirectional or unassigned characters";

const refused = (args: string[], message: string, code = 1) => expectRefusal(db, args, message, code);

describe("tollgate user add / list / show", () => {
  test("add creates an ordinary user with the password from stdin", async () => {
    const result = await db.run(
      ["user", "add", "alice", "--password-stdin", "--display-name", "Alice"],
      "alice-pass-1\n",
    );
    expect(result).toMatchObject({ code: 0, stdout: "created user alice (id 2)\n" });
    expect(await Bun.password.verify("alice-pass-1", passwordHash("alice"))).toBe(true);
    const bob = await db.json(["user", "add", "bob", "--password", "bob-pass-12"]);
    expect(bob).toMatchObject({ username: "bob", role: 1, status: 1 });
  });

  test("add refuses a taken username, a short password, and no password at all (usage)", async () => {
    await refused(
      ["user", "add", "alice", "--password", "another-pass"],
      "username already exists or has been deleted",
    );
    await refused(["user", "add", "carol", "--password", "short"], "password must be 8 to 20 characters");
    await refused(["user", "add", "carol"], "give the password with --password or --password-stdin", 2);
  });

  test("add and edit refuse a name that looks like an existing one or holds an unseen character", async () => {
    await refused(
      ["user", "add", "ＡLICE", "--password", "another-pass"],
      "username is taken: it looks like an existing user's name",
    );
    await refused(["user", "add", "eve\u200b", "--password", "another-pass"], UNSEEN);
    await refused(
      ["user", "edit", "bob", "--username", "A1ice"],
      "username is taken: it looks like an existing user's name",
    );
  });

  test("list --json answers the page; the human table is aligned and fits 80 columns", async () => {
    const page = await db.json(["user", "list"]);
    expect(page.items.map((u: { username: string }) => u.username)).toEqual(["bob", "alice", "root"]);
    expect(page.total).toBe(3);
    const filtered = await db.json(["user", "list", "--keyword", "ali"]);
    expect(filtered.items.map((u: { username: string }) => u.username)).toEqual(["alice"]);
    const table = (await db.run(["user", "list"])).stdout.trimEnd().split("\n");
    expect(table[0]).toMatch(/^ID {2}USERNAME {2}DISPLAY NAME {2}ROLE/);
    expect(table).toHaveLength(4);
    for (const line of table) expect(line.length).toBeLessThanOrEqual(80);
  });

  test("show finds a user by username or id; an unknown one is refused", async () => {
    expect(await db.json(["user", "show", "alice"])).toMatchObject({ id: 2, display_name: "Alice" });
    expect(await db.json(["user", "show", "2"])).toMatchObject({ username: "alice" });
    expect((await db.run(["user", "show", "alice"])).stdout).toMatch(/^role +common$/m);
    await refused(["user", "show", "nobody"], "user not found");
  });
});

describe("tollgate user edit / set-password / add-quota", () => {
  test("edit changes the fields given and logs a quota change", async () => {
    const user = await db.json(["user", "edit", "alice", "--remark", "vip soon", "--quota", "5000"]);
    expect(user).toMatchObject({ remark: "vip soon", quota: 5000, display_name: "Alice" });
    const logs = await db.json(["log", "list", "--type", "manage", "--user", "alice"]);
    expect(logs.items[0]).toMatchObject({ quota: 5000 });
  });

  test("edit refuses an unknown group and an empty edit", async () => {
    await refused(["user", "edit", "alice", "--group", "nonexistent"], "group nonexistent does not exist");
    await refused(["user", "edit", "alice"], "nothing to update");
  });

  test("set-password sets the password; a short one is refused", async () => {
    expect((await db.run(["user", "set-password", "alice", "--password-stdin"], "new-alice-pass\n")).code).toBe(0);
    expect(await Bun.password.verify("new-alice-pass", passwordHash("alice"))).toBe(true);
    await refused(["user", "set-password", "alice", "--password", "tiny"], "password must be 8 to 20 characters");
  });

  test("add-quota adds, subtracts and overrides; it never goes below zero", async () => {
    expect(await db.json(["user", "add-quota", "alice", "1000"])).toEqual({ id: 2, quota: 6000 });
    expect(await db.json(["user", "add-quota", "alice", "500", "--mode", "subtract"])).toEqual({ id: 2, quota: 5500 });
    expect(await db.json(["user", "add-quota", "alice", "42", "--mode", "override"])).toEqual({ id: 2, quota: 42 });
    await refused(["user", "add-quota", "alice", "100", "--mode", "subtract"], "quota cannot be negative");
    expect((await db.run(["user", "add-quota", "alice", "lots"])).code).toBe(2);
  });
});

describe("tollgate user promote / demote / enable / disable / delete", () => {
  test("promote and demote follow the role rules", async () => {
    expect(await db.json(["user", "promote", "alice"])).toEqual({ id: 2, status: 1, role: 10 });
    await refused(["user", "promote", "alice"], "the user is already an administrator");
    expect(await db.json(["user", "demote", "alice"])).toEqual({ id: 2, status: 1, role: 1 });
    await refused(["user", "demote", "root"], "the super administrator cannot be demoted");
  });

  test("disable and enable; root cannot be disabled", async () => {
    expect((await db.run(["user", "disable", "bob"])).stdout).toBe("user bob: role common, status disabled\n");
    expect(await db.json(["user", "enable", "bob"])).toMatchObject({ status: 1 });
    await refused(["user", "disable", "root"], "the super administrator cannot be disabled");
  });

  test("delete is soft and final; root cannot be deleted", async () => {
    expect((await db.run(["user", "delete", "bob"])).stdout).toBe("deleted user bob\n");
    expect((await db.json(["user", "show", "bob"])).DeletedAt).toBeGreaterThan(0);
    await refused(["user", "delete", "bob"], "the user has been deleted");
    await refused(["user", "delete", "root"], "the super administrator cannot be deleted");
  });
});
