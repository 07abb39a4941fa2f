import { describe, expect, test } from "bun:test";
import { createTestDatabase } from "../support/databases";
import { DIALECTS } from "../support/databases";
import { migrate } from "../../src/db/migrations";
import { openTestContext, uniqueName, useTestServer } from "../support/server";

const UNSEEN = "username must not contain control, zero-width, bidirectional or unassigned characters";
const LOOK_ALIKE = "username is taken: it looks like an existing user's name";

describe.each(DIALECTS)("names that impersonate, on %s", (dialect) => {
  const s = useTestServer(dialect);
  const register = (username: string) =>
    s.client().post("/api/user/register", { username, password: "password123", password2: "password123" });

  test("a username holding a zero-width, NUL, bidi-override, unpaired surrogate or private-use character is refused", async () => {
    for (const username of ["root\u200b", "ro\u0000ot", "\u202eroot", "ab\ud800", "ab\ue000", "x\u2066y"]) {
      expect((await register(username)).body).toEqual({ success: false, message: UNSEEN });
    }
  });

  test("a case variant, a fullwidth form or a confusable spelling of an existing name is refused", async () => {
    for (const username of ["Root", "ROOT", "ｒｏｏｔ", "rооt", "r00t"]) {
      expect((await register(username)).body).toEqual({ success: false, message: LOOK_ALIKE });
    }
    const name = `m${uniqueName("")}`.slice(0, 10);
    await s.newUser(name);
    expect((await register(`rn${name.slice(1)}`)).body).toEqual({ success: false, message: LOOK_ALIKE });
  });

  test("an admin cannot create or rename a user into a look-alike, nor give an unseen character", async () => {
    const create = await s.root.post("/api/user/", { username: "Ｒoot", password: "password123" });
    expect(create.body).toEqual({ success: false, message: LOOK_ALIKE });
    const other = await s.newUser();
    const id = (await other.get("/api/user/self")).body.data.id;
    expect((await s.root.put("/api/user/", { id, username: "rOot" })).body).toEqual({
      success: false,
      message: LOOK_ALIKE,
    });
    expect((await s.root.put("/api/user/", { id, username: "a\u200bb" })).body).toEqual({
      success: false,
      message: UNSEEN,
    });
    const shown = await s.root.put("/api/user/", { id, display_name: "root\u202e" });
    expect(shown.body).toEqual({
      success: false,
      message: "display name must not contain control, zero-width, bidirectional or unassigned characters",
    });
  });

  test("a user may change the case of their own name, and display names refuse unseen characters", async () => {
    const name = uniqueName("c");
    const user = await s.newUser(name);
    const id = (await user.get("/api/user/self")).body.data.id;
    expect((await s.root.put("/api/user/", { id, username: name.toUpperCase() })).body.success).toBe(true);
    const self = await user.put("/api/user/self", { display_name: "x\u0007y" });
    expect(self.body).toEqual({
      success: false,
      message: "display name must not contain control, zero-width, bidirectional or unassigned characters",
    });
  });
});

describe.each(DIALECTS)("names stored before the rules, on %s", (dialect) => {
  test("are left as they are, yet still block their look-alikes; the oldest of two look-alikes holds the name", async () => {
    const database = await createTestDatabase(dialect);
    const db = database.open();
    await migrate(db);
    const row = { password: "x", created_at: 1 };
    await db.k
      .insertInto("users")
      .values([
        { username: "bob\u200b", aff_code: "aff001", ...row },
        { username: "Bob", aff_code: "aff002", ...row },
      ])
      .execute();
    await db.close();
    const ctx = await openTestContext(database);
    try {
      const stored = await ctx.db.k.selectFrom("users").select(["username", "username_key"]).orderBy("id").execute();
      expect(stored).toEqual([
        { username: "bob\u200b", username_key: "bob" },
        { username: "Bob", username_key: expect.stringMatching(/^bob #\d+$/) },
      ]);
      const { createUser } = await import("../../src/service/users/create");
      await expect(createUser(ctx.db, { username: "BOB", password: "password123" })).rejects.toThrow(LOOK_ALIKE);
    } finally {
      await ctx.close();
      await database.drop();
    }
  });
});
