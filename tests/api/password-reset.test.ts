import { describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { useMailingServer } from "../support/mailing-server";
import { uniqueName, type TestServer } from "../support/server";

const INVALID = { success: false, message: "the password reset link is invalid or has expired" };

/** A registered user with an email, and a second signed-in session of theirs. */
async function userWithEmail(s: TestServer) {
  const username = uniqueName();
  const email = `${username}@example.com`;
  await s.client().post("/api/user/register", { username, password: "password123", password2: "password123", email });
  const session = s.client();
  await session.login(username, "password123");
  return { username, email, session };
}

const linkIn = (text: string) => new URL(/https?:\/\/\S+/.exec(text)![0]);

describe.each(DIALECTS)("password reset by mail on %s", (dialect) => {
  const m = useMailingServer(dialect, {}, async ({ s }) => {
    await s.root.put("/api/option/", { key: "ServerAddress", value: "https://gate.example.com" });
  });

  test("the mailed link <ServerAddress>/user/reset?email&token gives a new password once; every session ends", async () => {
    const { username, email, session } = await userWithEmail(m.s);
    const asked = await m.s.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
    expect(asked.body.success).toBe(true);
    const link = linkIn((await m.smtp.nextMailTo(email)).text);
    expect(`${link.origin}${link.pathname}`).toBe("https://gate.example.com/user/reset");
    expect(link.searchParams.get("email")).toBe(email);
    const token = link.searchParams.get("token")!;
    const reset = await m.s.client().post("/api/user/reset", { email, token });
    expect(reset.body.success).toBe(true);
    const password = reset.body.data as string;
    expect(password).toMatch(/^[0-9A-Za-z]{12}$/);
    expect((await session.get("/api/user/self")).status).toBe(401);
    expect((await m.s.client().login(username, "password123")).body.success).toBe(false);
    expect((await m.s.client().login(username, password)).body.success).toBe(true);
    expect((await m.s.client().post("/api/user/reset", { email, token })).body).toEqual(INVALID);
  });
});

describe("password reset: bad input changes nothing (SQLite)", () => {
  const m = useMailingServer("sqlite", {}, async ({ s }) => {
    await s.root.put("/api/option/", { key: "ServerAddress", value: "https://gate.example.com" });
  });

  const passwordOf = async (username: string) =>
    (
      await m.s.ctx.db.k
        .selectFrom("users")
        .select("password")
        .where("username", "=", username)
        .executeTakeFirstOrThrow()
    ).password;

  test("a wrong token, a wrong email and a missing field are refused; the password and sessions stay", async () => {
    const { username, email, session } = await userWithEmail(m.s);
    await m.s.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
    const token = linkIn((await m.smtp.nextMailTo(email)).text).searchParams.get("token")!;
    const before = await passwordOf(username);
    const c = m.s.client();
    // The last character changed to another (a token ending in "x" made "x" no change at all).
    const wrong = `${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}`;
    expect((await c.post("/api/user/reset", { email, token: wrong })).body).toEqual(INVALID);
    expect((await c.post("/api/user/reset", { email: `other-${email}`, token })).body).toEqual(INVALID);
    expect((await c.post("/api/user/reset", { email })).body).toEqual(INVALID);
    expect(await passwordOf(username)).toBe(before);
    expect((await session.get("/api/user/self")).body.success).toBe(true);
    // The right token still works after the wrong tries above (fewer than five).
    expect((await c.post("/api/user/reset", { email, token })).body.success).toBe(true);
  });

  test("an expired link is refused", async () => {
    const { username, email } = await userWithEmail(m.s);
    await m.s.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
    const token = linkIn((await m.smtp.nextMailTo(email)).text).searchParams.get("token")!;
    await m.s.ctx.db.k.updateTable("account_codes").set({ expires_at: 1 }).where("subject", "=", email).execute();
    const before = await passwordOf(username);
    expect((await m.s.client().post("/api/user/reset", { email, token })).body).toEqual(INVALID);
    expect(await passwordOf(username)).toBe(before);
  });

  test("an address no account uses gets the same reply and no mail", async () => {
    const count = m.smtp.mails.length;
    const reply = await m.s.client().get(`/api/reset_password?email=nobody-${uniqueName()}@example.com`);
    expect(reply.body).toEqual({
      success: true,
      message: "if an account uses this address, a reset link was sent to it",
      data: null,
    });
    expect(m.smtp.mails.length).toBe(count);
  });

  test("a second reset mail within 30 seconds is refused", async () => {
    const { email } = await userWithEmail(m.s);
    await m.s.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
    await m.smtp.nextMailTo(email);
    expect((await m.s.client().get(`/api/reset_password?email=${encodeURIComponent(email)}`)).status).toBe(429);
  });

  test("without a ServerAddress no link can be made: a clear refusal", async () => {
    await m.s.root.put("/api/option/", { key: "ServerAddress", value: "" });
    try {
      const reply = await m.s.client().get("/api/reset_password?email=someone@example.com");
      expect(reply.body.success).toBe(false);
      expect(reply.body.message).toContain("server address is not set");
    } finally {
      await m.s.root.put("/api/option/", { key: "ServerAddress", value: "https://gate.example.com" });
    }
  });
});
