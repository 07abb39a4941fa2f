import { describe, expect, test } from "bun:test";
import { ROOT_PASSWORD, useTestServer } from "../support/server";

// Spec §5 warns when the factory-default super-admin credentials (the dialect's root / 123456) are used; here they
// can never exist, so the console's warning is only a nudge against typing them.
describe("the factory-default credentials root / 123456 can never exist", () => {
  const s = useTestServer("sqlite");
  const RULE = { success: false, message: "password must be 8 to 20 characters" };

  test("root cannot be given 123456: not by an admin edit, not by root's own password change", async () => {
    const self = (await s.root.get("/api/user/self")).body.data;
    expect((await s.root.put("/api/user/", { ...self, password: "123456" })).body).toEqual(RULE);
    expect((await s.root.put("/api/user/self", { original_password: ROOT_PASSWORD, password: "123456" })).body).toEqual(
      RULE,
    );
    expect((await s.client().login("root", "123456")).body.success).toBe(false);
  });

  test("nobody registers with it either", async () => {
    expect((await s.client().post("/api/user/register", { username: "short", password: "123456" })).body).toEqual(RULE);
  });
});
