import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { SMTP_TEST_CA as CA, useMailingServer } from "../support/mailing-server";
import { startSmtpServer } from "../support/smtp-server";
import { startTestServer, uniqueName, type TestServer } from "../support/server";

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? "";
const setOption = (s: TestServer, key: string, value: string) => s.root.put("/api/option/", { key, value });
const userCount = async (s: TestServer) =>
  Number(
    (
      await s.ctx.db.k
        .selectFrom("users")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(DIALECTS)("registration with an emailed code on %s", (dialect) => {
  const m = useMailingServer(dialect, {}, async ({ s }) => {
    await setOption(s, "SystemName", "Gatehouse");
    await setOption(s, "EmailVerificationEnabled", "true");
  });

  test("GET /api/verification mails a 6-digit code (with the SystemName) that registers the account once", async () => {
    const email = `${uniqueName()}@example.com`;
    const c = m.s.client();
    const sent = await c.get(`/api/verification?email=${encodeURIComponent(email)}`, { "accept-language": "en-US" });
    expect(sent.body).toEqual({
      success: true,
      message: "verification code sent, please check your mailbox",
      data: null,
    });
    const mail = await m.smtp.nextMailTo(email);
    expect(mail.subject).toBe("Gatehouse email verification code");
    expect(mail.from).toBe("noreply@tollgate.test");
    expect(mail.secure).toBe(true); // STARTTLS, offered by the server, was used
    const code = codeIn(mail.text);
    expect(code).toMatch(/^\d{6}$/);
    const username = uniqueName();
    const body = { username, password: "password123", password2: "password123", email, verification_code: code };
    expect((await c.post("/api/user/register", body)).body.success).toBe(true);
    expect((await c.login(username, "password123")).body.success).toBe(true);
    expect((await c.get("/api/user/self")).body.data.email).toBe(email);
    // Reused: the code is gone.
    const again = await m.s.client().post("/api/user/register", { ...body, username: uniqueName() });
    expect(again.body).toEqual({ success: false, message: "verification code is wrong or has expired" });
  });

  test("a mail in the reader's language: Chinese unless the request asks for English", async () => {
    const email = `${uniqueName()}@example.com`;
    await m.s.client().get(`/api/verification?email=${encodeURIComponent(email)}`, { "accept-language": "zh-CN" });
    const mail = await m.smtp.nextMailTo(email);
    expect(mail.subject).toBe("Gatehouse 邮箱验证码");
    expect(mail.text).toContain("10 分钟");
  });
});

describe("email codes: the rules and bad input (SQLite)", () => {
  const m = useMailingServer("sqlite", { EMAIL_RECIPIENT_RATE_LIMIT: "3/3600" }, async ({ s }) => {
    await setOption(s, "EmailVerificationEnabled", "true");
  });

  const ask = (email: string) => m.s.client().get(`/api/verification?email=${encodeURIComponent(email)}`);
  const register = (email: string, code: string, username = uniqueName()) =>
    m.s.client().post("/api/user/register", {
      username,
      password: "password123",
      password2: "password123",
      email,
      verification_code: code,
    });

  test("EmailVerificationEnabled: registering without email and code is refused and creates nobody", async () => {
    const before = await userCount(m.s);
    const reply = await m.s.client().post("/api/user/register", { username: uniqueName(), password: "password123" });
    expect(reply.body).toEqual({ success: false, message: "email and verification code are required" });
    expect(await userCount(m.s)).toBe(before);
  });

  test("a wrong code is refused and creates nobody; five wrong tries void the code", async () => {
    const email = `${uniqueName()}@example.com`;
    await ask(email);
    const code = codeIn((await m.smtp.nextMailTo(email)).text);
    const wrong = code === "000000" ? "111111" : "000000";
    const before = await userCount(m.s);
    for (let i = 0; i < 5; i++) {
      expect((await register(email, wrong)).body.message).toBe("verification code is wrong or has expired");
    }
    expect((await register(email, code)).body.message).toBe("verification code is wrong or has expired");
    expect(await userCount(m.s)).toBe(before);
  });

  test("an expired code (older than 10 minutes) is refused", async () => {
    const email = `${uniqueName()}@example.com`;
    await ask(email);
    const code = codeIn((await m.smtp.nextMailTo(email)).text);
    await m.s.ctx.db.k
      .updateTable("account_codes")
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where("subject", "=", email)
      .execute();
    const before = await userCount(m.s);
    expect((await register(email, code)).body.message).toBe("verification code is wrong or has expired");
    expect(await userCount(m.s)).toBe(before);
  });

  test("a code for one address does not register another", async () => {
    const a = `${uniqueName()}@example.com`;
    await ask(a);
    const code = codeIn((await m.smtp.nextMailTo(a)).text);
    expect((await register(`${uniqueName()}@example.com`, code)).body.message).toBe(
      "verification code is wrong or has expired",
    );
  });

  test("a second code within 30 seconds is refused (429) and nothing is mailed; the lock is per address", async () => {
    const email = `${uniqueName()}@example.com`;
    expect((await ask(email)).body.success).toBe(true);
    await m.smtp.nextMailTo(email);
    const count = m.smtp.mails.length;
    const again = await ask(email);
    expect(again.status).toBe(429);
    expect(again.body.success).toBe(false);
    expect(again.body.message).toMatch(/^mails are sent too often, please wait \d+ seconds and retry$/);
    expect(m.smtp.mails.length).toBe(count);
  });

  test("at most EMAIL_RECIPIENT_RATE_LIMIT codes per address per window, whatever the 30-second lock says", async () => {
    const email = `${uniqueName()}@example.com`;
    for (let i = 0; i < 3; i++) {
      expect((await ask(email)).body.success).toBe(true);
      await m.smtp.nextMailTo(email);
      // Lift the 30-second lock, as if half a minute had passed.
      await m.s.ctx.db.k.updateTable("account_codes").set({ sent_at: 0 }).where("subject", "=", email).execute();
    }
    const fourth = await ask(email);
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toBe("too many requests, please try again later");
  });

  test("an address an account already uses gets no code", async () => {
    const email = `${uniqueName()}@example.com`;
    await ask(email);
    await register(email, codeIn((await m.smtp.nextMailTo(email)).text));
    expect((await ask(email.toUpperCase())).body).toEqual({ success: false, message: "email is already in use" });
  });

  test("an empty or malformed address is refused", async () => {
    expect((await m.s.client().get("/api/verification")).body).toEqual({
      success: false,
      message: "email is required",
    });
    expect((await ask("not-an-address")).body).toEqual({ success: false, message: "invalid email address" });
  });

  test("EmailDomainRestrictionEnabled: only EmailDomainWhitelist domains get a code", async () => {
    await setOption(m.s, "EmailDomainWhitelist", "example.com,corp.test");
    await setOption(m.s, "EmailDomainRestrictionEnabled", "true");
    try {
      const refused = await ask(`${uniqueName()}@elsewhere.test`);
      expect(refused.body).toEqual({
        success: false,
        message: "the administrator allows only email addresses of whitelisted domains",
      });
      expect((await ask(`${uniqueName()}@corp.test`)).body.success).toBe(true);
    } finally {
      await setOption(m.s, "EmailDomainRestrictionEnabled", "false");
    }
    expect((await ask(`${uniqueName()}@elsewhere.test`)).body.success).toBe(true);
  });

  test("EmailAliasRestrictionEnabled: a +tag alias gets no code", async () => {
    await setOption(m.s, "EmailAliasRestrictionEnabled", "true");
    try {
      expect((await ask(`${uniqueName()}+promo@example.com`)).body).toEqual({
        success: false,
        message: "the administrator does not allow email aliases (an address with +tag)",
      });
    } finally {
      await setOption(m.s, "EmailAliasRestrictionEnabled", "false");
    }
    expect((await ask(`${uniqueName()}+promo@example.com`)).body.success).toBe(true);
  });
});

describe("binding an email from personal settings (SQLite)", () => {
  const m = useMailingServer("sqlite", {});

  const codeFor = async (email: string) => {
    expect((await m.s.client().get(`/api/verification?email=${encodeURIComponent(email)}`)).body.success).toBe(true);
    return codeIn((await m.smtp.nextMailTo(email)).text);
  };

  test("GET /api/oauth/email/bind?email&code binds the address with the mailed code, once", async () => {
    const user = await m.s.newUser();
    const email = `${uniqueName()}@example.com`;
    const code = await codeFor(email);
    const bound = await user.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`);
    expect(bound.body).toEqual({ success: true, message: "email bound", data: null });
    expect((await user.get("/api/user/self")).body.data.email).toBe(email);
    const other = await m.s.newUser();
    const reused = await other.post("/api/oauth/email/bind", { email, code });
    expect(reused.body).toEqual({ success: false, message: "email is already in use" });
  });

  test("a wrong code is refused and the email stays as it was", async () => {
    const user = await m.s.newUser();
    const email = `${uniqueName()}@example.com`;
    const code = await codeFor(email);
    const wrong = code === "123456" ? "654321" : "123456";
    const reply = await user.post("/api/oauth/email/bind", { email, code: wrong });
    expect(reply.body).toEqual({ success: false, message: "verification code is wrong or has expired" });
    expect((await user.get("/api/user/self")).body.data.email).toBe("");
    expect((await user.post("/api/oauth/email/bind", { email })).body.message).toBe("verification code is required");
  });

  test("an address bound to another account is refused with the spec's message", async () => {
    const first = await m.s.newUser();
    const email = `${uniqueName()}@example.com`;
    await first.post("/api/oauth/email/bind", { email, code: await codeFor(email) });
    // The code was asked for before the first account bound it.
    const second = await m.s.newUser();
    const email2 = `${uniqueName()}@example.com`;
    const code2 = await codeFor(email2);
    await first.post("/api/oauth/email/bind", { email: email2, code: code2 });
    const refused = await second.post("/api/oauth/email/bind", { email: email2, code: code2 });
    expect(refused.body).toEqual({ success: false, message: "email is already in use" });
  });

  test("without a session the call answers 401", async () => {
    expect((await m.s.client().get("/api/oauth/email/bind?email=a@example.com&code=123456")).status).toBe(401);
  });
});

describe("SMTP settings and the test mail (SQLite)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer("sqlite", { SMTP_CA_FILE: CA });
  });
  afterAll(() => s.stop());

  test("SMTPAccount/SMTPToken authenticate; a wrong password is a clear error and the log line hides it", async () => {
    const smtp = await startSmtpServer({ user: "mailer", pass: "s3cret-pass" });
    try {
      await smtp.configure(s.ctx, { SMTPAccount: "mailer", SMTPToken: "s3cret-pass" });
      const sent = await s.root.post("/api/option/test_mail", { email: "ops@example.com" });
      expect(sent.body).toEqual({ success: true, message: "test mail sent to ops@example.com", data: null });
      const mail = await smtp.nextMailTo("ops@example.com");
      expect(mail.user).toBe("mailer");
      expect(mail.secure).toBe(true);

      await smtp.configure(s.ctx, { SMTPAccount: "mailer", SMTPToken: "wrong-pass-xyz" });
      const logged: string[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void logged.push(args.join(" "));
      let failed: Awaited<ReturnType<typeof s.root.post>>;
      try {
        failed = await s.root.post("/api/option/test_mail", { email: "ops@example.com" });
      } finally {
        console.error = original;
      }
      expect(failed.body.success).toBe(false);
      expect(failed.body.message).toStartWith("failed to send the test mail: ");
      expect(failed.body.message).not.toContain("wrong-pass-xyz");
      expect(logged.some((line) => line.includes("[mail]") && line.includes("ops@example.com"))).toBe(true);
      expect(logged.join("\n")).not.toContain("wrong-pass-xyz");
    } finally {
      await smtp.stop();
    }
  });

  test("an unreachable SMTP server fails a code request with a clear error, and no code is left behind", async () => {
    const smtp = await startSmtpServer();
    await smtp.configure(s.ctx);
    await smtp.stop();
    const original = console.error;
    console.error = () => {};
    try {
      const email = `${uniqueName()}@example.com`;
      const reply = await s.client().get(`/api/verification?email=${encodeURIComponent(email)}`);
      expect(reply.body).toEqual({
        success: false,
        message: "failed to send the email, please try again later or contact the administrator",
      });
      const left = await s.ctx.db.k.selectFrom("account_codes").selectAll().where("subject", "=", email).execute();
      expect(left).toEqual([]);
    } finally {
      console.error = original;
    }
  });

  test("SMTPSSLEnabled: implicit TLS from the first byte (a plain server then fails)", async () => {
    const smtp = await startSmtpServer();
    try {
      await smtp.configure(s.ctx);
      await s.ctx.options.set("SMTPSSLEnabled", "true");
      const original = console.error;
      console.error = () => {};
      try {
        const reply = await s.root.post("/api/option/test_mail", { email: "ops@example.com" });
        expect(reply.body.success).toBe(false);
      } finally {
        console.error = original;
      }
    } finally {
      await smtp.stop();
    }
    const tlsSmtp = await startSmtpServer(undefined, { implicitTls: true });
    try {
      await tlsSmtp.configure(s.ctx);
      await s.ctx.options.set("SMTPSSLEnabled", "true");
      expect((await s.root.post("/api/option/test_mail", { email: "ops@example.com" })).body.success).toBe(true);
      expect((await tlsSmtp.nextMailTo("ops@example.com")).secure).toBe(true);
    } finally {
      await tlsSmtp.stop();
    }
  });

  test("no SMTP server set: a clear refusal", async () => {
    await s.ctx.options.set("SMTPServer", "");
    expect((await s.root.post("/api/option/test_mail", { email: "ops@example.com" })).body).toEqual({
      success: false,
      message: "email is not set up on this site (SMTP server), contact the administrator",
    });
  });

  test("only root may send a test mail", async () => {
    const user = await s.newUser();
    expect((await user.post("/api/option/test_mail", { email: "ops@example.com" })).body.success).toBe(false);
  });
});
