import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TWO_FACTOR_REQUIRED } from "../../src/service/accounts/two-factor";
import { SEALED_PREFIX } from "../../src/service/secrets/at-rest";
import { DIALECTS } from "../support/databases";
import type { ApiClient } from "../support/client";
import { startTestServer, uniqueName, type TestServer } from "../support/server";
import { authenticator, awayFromStepEdge } from "../support/totp";

/** A new user who has turned two-factor sign-in on with the code of the previous step; answers the app and codes. */
async function withTwoFactor(user: ApiClient) {
  const setup = await user.post("/api/user/2fa/setup");
  expect(setup.body.success).toBe(true);
  expect(setup.body.data.uri).toStartWith("otpauth://totp/");
  const app = authenticator(setup.body.data.secret);
  const enabled = await user.post("/api/user/2fa/enable", { code: app(-1) });
  expect(enabled.body.success).toBe(true);
  return { app, recovery: enabled.body.data.recovery_codes as string[] };
}

const signInFirstStep = (s: TestServer, username: string) =>
  s.client().post("/api/user/login", { username, password: "password123" });

describe.each(DIALECTS)("two-factor sign-in on %s", (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s.stop());

  test("with 2FA on, the password alone gives no session; the app's code finishes the sign-in, once", async () => {
    await awayFromStepEdge();
    const name = uniqueName();
    const user = await s.newUser(name);
    const { app } = await withTwoFactor(user);
    const stored = await s.ctx.db.k
      .selectFrom("users")
      .select(["totp_secret", "totp_recovery"])
      .where("username", "=", name)
      .executeTakeFirstOrThrow();
    expect(stored.totp_secret).toStartWith(SEALED_PREFIX);
    expect(JSON.parse(stored.totp_recovery!)).toHaveLength(10);

    const c = s.client();
    const first = await c.post("/api/user/login", { username: name, password: "password123" });
    expect(first.body.data).toEqual({ require_2fa: true, ticket: expect.any(String) });
    expect(c.cookie).toBe("");
    const second = await c.post("/api/user/login/2fa", { ticket: first.body.data.ticket, code: app(0) });
    expect(second.body).toMatchObject({ success: true, data: { username: name } });
    c.userId = second.body.data.id;
    expect((await c.get("/api/user/self")).body.success).toBe(true);
    // The same code (same time step) does not sign in again.
    const again = await signInFirstStep(s, name);
    const replay = await s.client().post("/api/user/login/2fa", { ticket: again.body.data.ticket, code: app(0) });
    expect(replay.body).toEqual({ success: false, message: "two-factor code is wrong" });
  });
});

describe("two-factor sign-in: recovery codes, removal and bad input (SQLite)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer("sqlite");
  });
  afterAll(() => s.stop());

  test("a recovery code signs in once; the ticket is single use", async () => {
    const name = uniqueName();
    const { recovery } = await withTwoFactor(await s.newUser(name));
    const first = await signInFirstStep(s, name);
    const ok = await s.client().post("/api/user/login/2fa", { ticket: first.body.data.ticket, code: recovery[0] });
    expect(ok.body.success).toBe(true);
    const ticketAgain = await s
      .client()
      .post("/api/user/login/2fa", { ticket: first.body.data.ticket, code: recovery[1] });
    expect(ticketAgain.body.success).toBe(false);
    const next = await signInFirstStep(s, name);
    const reused = await s.client().post("/api/user/login/2fa", { ticket: next.body.data.ticket, code: recovery[0] });
    expect(reused.body).toEqual({ success: false, message: "two-factor code is wrong" });
    const status = await s.client().post("/api/user/login/2fa", { ticket: next.body.data.ticket, code: recovery[1] });
    expect(status.body.success).toBe(true);
  });

  test("five wrong codes void the ticket: the right code then needs a new password step", async () => {
    await awayFromStepEdge();
    const name = uniqueName();
    const { app } = await withTwoFactor(await s.newUser(name));
    const first = await signInFirstStep(s, name);
    for (let i = 0; i < 5; i++) {
      const wrong = await s.client().post("/api/user/login/2fa", { ticket: first.body.data.ticket, code: "000000" });
      expect(wrong.body.success).toBe(false);
    }
    const late = await s.client().post("/api/user/login/2fa", { ticket: first.body.data.ticket, code: app(0) });
    expect(late.body).toEqual({
      success: false,
      message: "the sign-in has expired or had too many wrong codes, please sign in again",
    });
    const forged = await s.client().post("/api/user/login/2fa", { ticket: "forged", code: app(0) });
    expect(forged.body.success).toBe(false);
  });

  test("turning on needs a right code; turning off needs a current code, and a wrong one leaves it on", async () => {
    await awayFromStepEdge();
    const user = await s.newUser();
    const setup = await user.post("/api/user/2fa/setup");
    const app = authenticator(setup.body.data.secret);
    expect((await user.post("/api/user/2fa/enable", { code: "123" })).body).toEqual({
      success: false,
      message: "two-factor code is wrong",
    });
    expect((await user.get("/api/user/2fa/status")).body.data.enabled).toBe(false);
    await user.post("/api/user/2fa/enable", { code: app(-1) });
    expect((await user.get("/api/user/2fa/status")).body.data).toEqual({
      enabled: true,
      recovery_codes_left: 10,
      required: false,
    });
    expect((await user.post("/api/user/2fa/disable", { code: "000000" })).body.success).toBe(false);
    expect((await user.post("/api/user/2fa/disable", {})).body.success).toBe(false);
    expect((await user.get("/api/user/2fa/status")).body.data.enabled).toBe(true);
    expect((await user.post("/api/user/2fa/setup")).body).toEqual({
      success: false,
      message: "two-factor sign-in is already on",
    });
    expect((await user.post("/api/user/2fa/disable", { code: app(0) })).body.success).toBe(true);
    expect((await user.get("/api/user/2fa/status")).body.data.enabled).toBe(false);
    const plain = await s.client().login(user.username, "password123");
    expect(plain.body.data.require_2fa).toBeUndefined();
  });

  test("TwoFactorRequiredForAdmins: an admin without 2FA is told to set it up and refused admin calls until then", async () => {
    await awayFromStepEdge();
    const name = uniqueName();
    const admin = await s.newUser(name);
    await s.root.post("/api/user/manage", { id: admin.userId, action: "promote" });
    await s.root.put("/api/option/", { key: "TwoFactorRequiredForAdmins", value: "true" });
    try {
      const signIn = await s.client().login(name, "password123");
      expect(signIn.body.data.require_2fa_setup).toBe(true);
      expect((await admin.get("/api/user/")).body).toEqual({ success: false, message: TWO_FACTOR_REQUIRED });
      expect((await admin.get("/api/user/self")).body.success).toBe(true);
      await withTwoFactor(admin);
      expect((await admin.get("/api/user/")).body.success).toBe(true);
      // An ordinary user is not asked.
      const plain = await s.newUser();
      expect((await plain.get("/api/user/2fa/status")).body.data.required).toBe(false);
    } finally {
      await s.ctx.options.set("TwoFactorRequiredForAdmins", "false");
    }
  });

  test("an admin clears a lower user's two-factor sign-in (DELETE /api/user/:id/2fa); not an equal's", async () => {
    const name = uniqueName();
    const user = await s.newUser(name);
    await withTwoFactor(user);
    const admin = await s.newUser();
    await s.root.post("/api/user/manage", { id: admin.userId, action: "promote" });
    const peer = await s.newUser();
    await s.root.post("/api/user/manage", { id: peer.userId, action: "promote" });
    await withTwoFactor(peer);
    expect((await admin.delete(`/api/user/${peer.userId}/2fa`)).body).toEqual({
      success: false,
      message: "no permission for a user of equal or higher role",
    });
    expect((await peer.get("/api/user/2fa/status")).body.data.enabled).toBe(true);
    expect((await admin.delete(`/api/user/${user.userId}/2fa`)).body.success).toBe(true);
    expect((await s.client().login(name, "password123")).body.data.require_2fa).toBeUndefined();
    expect((await user.delete(`/api/user/${user.userId}/2fa`)).body.success).toBe(false);
  });
});
