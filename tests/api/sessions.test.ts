import { describe, expect, test } from "bun:test";
import { expectFailure } from "../support/client";
import { DIALECTS, TEST_REDIS_URL } from "../support/databases";
import { useTestServer } from "../support/server";

const EXPIRED = "Unauthorized, not logged in or the session has expired";

// With REDIS_CONN_STRING the sessions are recorded in the database and cached in Redis; revocation works the same.
describe.each(DIALECTS)("sessions in Redis on %s", (dialect) => {
  const s = useTestServer(dialect, { REDIS_CONN_STRING: TEST_REDIS_URL, SESSION_TTL_SECONDS: "600" });

  test("sign-in works and records the session in the database (Redis is only its cache)", async () => {
    const user = await s.newUser();
    expect((await user.get("/api/user/self")).body.data.id).toBe(user.userId);
    const rows = await s.ctx.db.k.selectFrom("sessions").select("id").where("user_id", "=", user.userId!).execute();
    expect(rows).toHaveLength(1);
  });

  test("logout revokes that session and no other", async () => {
    const user = await s.newUser();
    const other = s.client();
    await other.login(user.username, "password123");
    const cookie = user.cookie;
    expect((await user.get("/api/user/logout")).body.success).toBe(true);
    expectFailure(await Object.assign(user, { cookie }).get("/api/user/self"), 401, EXPIRED);
    expect((await other.get("/api/user/self")).body.success).toBe(true);
  });

  test("a password change revokes every session of the user", async () => {
    const user = await s.newUser();
    const other = s.client();
    await other.login(user.username, "password123");
    const bystander = await s.newUser();
    await user.put("/api/user/self", { password: "new-password-1", original_password: "password123" });
    expectFailure(await other.get("/api/user/self"), 401, EXPIRED);
    expect((await bystander.get("/api/user/self")).body.success).toBe(true);
  });
});
