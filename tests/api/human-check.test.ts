import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { HUMAN_CHECK_FAILED, HUMAN_CHECK_PENDING } from "../../src/service/accounts/human-check";
import { startFakeTurnstile, type FakeTurnstile } from "../support/fake-turnstile";
import { FAKE_WECHAT_TOKEN, startFakeWeChatServer } from "../support/fake-wechat-server";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";
import { startTestServer, uniqueName, type TestServer } from "../support/server";

const CA = join(import.meta.dir, "../fixtures/upstream-test-cert.pem");
const SECRET = "0x4AAAAAAA-test-secret";

describe("the human check (Turnstile) on register, sign-in, email code and reset", () => {
  let s: TestServer;
  let turnstile: FakeTurnstile;
  let smtp: TestSmtpServer;
  let counter = 0;
  const token = () => {
    const t = `tok-${++counter}`;
    turnstile.issue(t);
    return t;
  };
  const users = async () => (await s.ctx.db.k.selectFrom("users").select("id").execute()).length;

  beforeAll(async () => {
    turnstile = startFakeTurnstile(SECRET);
    s = await startTestServer("sqlite", { TURNSTILE_VERIFY_URL: turnstile.url, SMTP_CA_FILE: CA });
    smtp = await startSmtpServer();
    await smtp.configure(s.ctx);
    await s.root.put("/api/option/", { key: "ServerAddress", value: "https://gate.example.com" });
    await s.root.put("/api/option/", { key: "TurnstileSiteKey", value: "0x4AAAAAAA-site" });
    await s.root.put("/api/option/", { key: "TurnstileSecretKey", value: SECRET });
    await s.root.put("/api/option/", { key: "TurnstileCheckEnabled", value: "true" });
  });
  afterAll(async () => {
    await smtp.stop();
    await s.stop();
    await turnstile.stop();
  });

  const pending = { success: false, message: HUMAN_CHECK_PENDING };
  const failed = { success: false, message: HUMAN_CHECK_FAILED };
  const registration = (name: string) => ({ username: name, password: "password123", password2: "password123" });

  test("register: no token or a forged one is refused and creates nobody; a verified token registers", async () => {
    const before = await users();
    const name = uniqueName();
    expect((await s.client().post("/api/user/register", registration(name))).body).toEqual(pending);
    expect((await s.client().post("/api/user/register?turnstile=forged", registration(name))).body).toEqual(failed);
    expect(await users()).toBe(before);
    const ok = await s.client().post(`/api/user/register?turnstile=${token()}`, registration(name));
    expect(ok.body.success).toBe(true);
    expect(turnstile.seen.at(-1)).toMatchObject({ secret: SECRET, remoteip: "127.0.0.1" });
  });

  test("sign-in: refused without a verified token (no session); a token is good once", async () => {
    const c = s.client();
    expect((await c.post("/api/user/login", { username: "root", password: "root-pass-1234" })).body).toEqual(pending);
    expect(c.cookie).toBe("");
    const t = token();
    const signedIn = await c.post(`/api/user/login?turnstile=${t}`, { username: "root", password: "root-pass-1234" });
    expect(signedIn.body.success).toBe(true);
    const replayed = await s.client().post(`/api/user/login?turnstile=${t}`, {
      username: "root",
      password: "root-pass-1234",
    });
    expect(replayed.body).toEqual(failed);
  });

  test("email code and reset mail: refused without a verified token, and nothing is mailed", async () => {
    const email = `${uniqueName()}@example.com`;
    const count = smtp.mails.length;
    expect((await s.client().get(`/api/verification?email=${email}`)).body).toEqual(pending);
    expect((await s.client().get(`/api/verification?email=${email}&turnstile=forged`)).body).toEqual(failed);
    expect((await s.client().get(`/api/reset_password?email=${email}`)).body).toEqual(pending);
    expect(smtp.mails.length).toBe(count);
    expect((await s.client().get(`/api/verification?email=${email}&turnstile=${token()}`)).body.success).toBe(true);
    await smtp.nextMailTo(email);
  });

  test("WeChat sign-in: refused without a verified token (nobody made, the code still good); a verified token signs in", async () => {
    const wechat = startFakeWeChatServer();
    try {
      await s.root.put("/api/option/", { key: "WeChatServerAddress", value: wechat.url });
      await s.root.put("/api/option/", { key: "WeChatServerToken", value: FAKE_WECHAT_TOKEN });
      await s.root.put("/api/option/", { key: "WeChatAuthEnabled", value: "true" });
      const before = await users();
      const code = wechat.codeFor("openid-human-check");
      expect((await s.client().get(`/api/oauth/wechat?code=${code}`)).body).toEqual(pending);
      expect((await s.client().get(`/api/oauth/wechat?code=${code}&turnstile=forged`)).body).toEqual(failed);
      expect(await users()).toBe(before);
      const signedIn = await s.client().get(`/api/oauth/wechat?code=${code}&turnstile=${token()}`);
      expect(signedIn.body).toMatchObject({ success: true, message: "login succeeded" });
      expect(await users()).toBe(before + 1);
    } finally {
      wechat.stop();
    }
  });

  test("TurnstileSecretKey is what the verifier checks: a wrong secret fails every token", async () => {
    await s.root.put("/api/option/", { key: "TurnstileSecretKey", value: "not-the-secret" });
    try {
      const reply = await s.client().post(`/api/user/login?turnstile=${token()}`, {
        username: "root",
        password: "root-pass-1234",
      });
      expect(reply.body).toEqual(failed);
    } finally {
      await s.root.put("/api/option/", { key: "TurnstileSecretKey", value: SECRET });
    }
  });

  test("with the check off, no token is needed", async () => {
    await s.root.put(`/api/option/`, { key: "TurnstileCheckEnabled", value: "false" });
    try {
      const c = s.client();
      expect((await c.post("/api/user/login", { username: "root", password: "root-pass-1234" })).body.success).toBe(
        true,
      );
    } finally {
      await s.root.put("/api/option/", { key: "TurnstileCheckEnabled", value: "true" });
    }
  });

  test("an unreachable verifier fails closed", async () => {
    await turnstile.stop();
    const original = console.error;
    console.error = () => {};
    try {
      const reply = await s.client().post(`/api/user/login?turnstile=whatever`, {
        username: "root",
        password: "root-pass-1234",
      });
      expect(reply.body).toEqual(failed);
    } finally {
      console.error = original;
    }
  });
});
