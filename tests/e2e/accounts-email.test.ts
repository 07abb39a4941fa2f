import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";
import { authenticator, awayFromStepEdge } from "../support/totp";
import {
  ROOT_PASSWORD,
  signIn,
  startConsole,
  submitLogin,
  toastText,
  uniqueName,
  type ConsoleSession,
} from "./support/console";

const CA = join(import.meta.dir, "../fixtures/upstream-test-cert.pem");

describe("accounts in the console with a real SMTP server", () => {
  let session: ConsoleSession;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    session = await startConsole({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, SMTP_CA_FILE: CA });
    for (const [key, value] of Object.entries(smtp.options())) await session.root.put("/api/option/", { key, value });
    await session.root.put("/api/option/", { key: "ServerAddress", value: session.url });
  }, 30_000);
  afterAll(async () => {
    await session?.stop();
    await smtp?.stop();
  });

  test("register with the code the mail brought, then sign in", async () => {
    await session.root.put("/api/option/", { key: "EmailVerificationEnabled", value: "true" });
    try {
      const page = await session.page({ language: "en" });
      await page.goto("/register");
      const username = uniqueName("mail");
      const email = `${username}@example.com`;
      await page.fill("input[name=username]", username);
      await page.fill("input[name=password]", "password123");
      await page.fill("input[name=password2]", "password123");
      await page.fill("input[name=email]", email);
      await page.click("[data-testid=get-code]");
      expect(await toastText(page, "success")).toBe("Verification code sent, check your inbox");
      const code = /\b(\d{6})\b/.exec((await smtp.nextMailTo(email)).text)![1]!;
      await page.fill("input[name=verification_code]", code);
      await page.click("[data-testid=register-form] button[type=submit]");
      expect(await toastText(page, "success")).toBe("Registered, please sign in");
      await page.waitForURL("**/login");
      await signIn(page, username, "password123");
    } finally {
      await session.root.put("/api/option/", { key: "EmailVerificationEnabled", value: "false" });
    }
  });

  test("reset a password from the mail's link: /reset, the link's /user/reset, the new password signs in", async () => {
    const username = uniqueName("rst");
    const email = `${username}@example.com`;
    const api = session.api();
    await api.post("/api/user/register", { username, password: "password123", password2: "password123", email });
    const page = await session.page({ language: "en" });
    await page.goto("/reset");
    await page.fill("input[name=email]", email);
    await page.click("[data-testid=reset-form] button[type=submit]");
    expect(await toastText(page, "success")).toBe("The reset mail is sent, check your inbox");
    const link = /https?:\/\/\S+/.exec((await smtp.nextMailTo(email)).text)![0];
    expect(link.startsWith(`${session.url}/user/reset?`)).toBe(true);
    await page.goto(link);
    await page.getByRole("button", { name: "Reset my password" }).click();
    const field = page.locator("input[name=new-password]");
    await field.waitFor();
    const password = await field.inputValue();
    expect(password).toMatch(/^[0-9A-Za-z]{12}$/);
    const fresh = await session.page({ language: "en" });
    await signIn(fresh, username, password);
  });

  test("turn on two-factor sign-in in personal settings, then sign in with the app's code", async () => {
    await awayFromStepEdge();
    const username = uniqueName("tfa");
    await session.api().post("/api/user/register", { username, password: "password123", password2: "password123" });
    const page = await session.page({ language: "en" });
    await signIn(page, username, "password123");
    await page.goto("/setting?tab=personal");
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
    const app = authenticator(secret);
    await page.fill("[data-testid=two-factor] input[name=two_factor_code]", app(-1));
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    expect(await toastText(page, "success")).toBe("Two-factor sign-in is on");
    expect(await page.getByTestId("recovery-codes").textContent()).toMatch(/[0-9A-Z]{5}-[0-9A-Z]{5}/);

    const next = await session.page({ language: "en" });
    await next.goto("/login");
    await submitLogin(next, username, "password123");
    await next.getByTestId("two-factor-form").waitFor();
    expect(await next.evaluate(() => localStorage.getItem("user"))).toBeNull();
    await next.fill("input[name=two_factor_code]", "000000");
    await next.click("[data-testid=two-factor-form] button[type=submit]");
    expect(await toastText(next, "error")).toBe("two-factor code is wrong");
    await next.fill("input[name=two_factor_code]", app(0));
    await next.click("[data-testid=two-factor-form] button[type=submit]");
    await next.waitForURL("**/token");
    expect(JSON.parse((await next.evaluate(() => localStorage.getItem("user")))!)).toMatchObject({ username });
  });

  test("root sends a test mail from the System tab", async () => {
    const page = await session.page({ language: "en" });
    await signIn(page, "root", ROOT_PASSWORD);
    await page.goto("/setting?tab=system");
    await page.fill("input[name=test_mail_to]", "ops@example.com");
    await page.getByRole("button", { name: "Send test mail" }).click();
    expect(await toastText(page, "success")).toBe("test mail sent to ops@example.com");
    expect((await smtp.nextMailTo("ops@example.com")).subject).toContain("test mail");
  });
});
