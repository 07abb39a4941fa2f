import { describe, expect, test } from "bun:test";
import { ROOT_PASSWORD, signIn, startConsole, submitLogin, toastText, uniqueName, useConsole } from "./support/console";

const ui = useConsole();

describe("registration", () => {
  test("a new user registers, the invite code of ?aff= is kept locally and sent as aff_code, then signs in", async () => {
    const inviter = ui.session.api();
    const inviterName = uniqueName("inv");
    await inviter.post("/api/user/register", {
      username: inviterName,
      password: "password123",
      password2: "password123",
    });
    await inviter.login(inviterName, "password123");
    const code = (await inviter.get("/api/user/aff")).body.data as string;

    const page = await ui.session.page({ language: "en" });
    await page.goto(`/register?aff=${code}`);
    expect(await page.evaluate(() => localStorage.getItem("aff"))).toBe(code);
    const username = uniqueName("reg");
    await page.fill("input[name=username]", username);
    await page.fill("input[name=password]", "password123");
    await page.fill("input[name=password2]", "password123");
    const sent = page.waitForRequest("**/api/user/register*");
    await page.click("[data-testid=register-form] button[type=submit]");
    expect((await sent).postDataJSON()).toMatchObject({
      username,
      password: "password123",
      password2: "password123",
      aff_code: code,
    });
    expect(await toastText(page, "success")).toBe("Registered, please sign in");
    await page.waitForURL("**/login");
    await signIn(page, username, "password123");
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem("user")))!)).toMatchObject({ username, role: 1 });
    expect((await inviter.get("/api/user/self")).body.data.aff_count).toBe(1);
  });

  test("the password needs 8 characters and must equal its confirmation", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/register");
    await page.fill("input[name=username]", uniqueName());
    await page.fill("input[name=password]", "short");
    await page.fill("input[name=password2]", "short");
    await page.click("[data-testid=register-form] button[type=submit]");
    expect(await toastText(page, "error")).toBe("The password must be at least 8 characters");
    await page.fill("input[name=password]", "password123");
    await page.fill("input[name=password2]", "password124");
    await page.click("[data-testid=register-form] button[type=submit]");
    expect(await toastText(page, "error")).toBe("The two passwords do not match");
  });

  test("with email verification on, email and code fields show and 'get code' waits 30 seconds", async () => {
    await ui.session.root.put("/api/option/", { key: "EmailVerificationEnabled", value: "true" });
    const page = await ui.session.page({ language: "en" });
    await page.goto("/register");
    await page.fill("input[name=email]", "someone@example.com");
    const asked = page.waitForRequest("**/api/verification?email=someone%40example.com*");
    await page.click("[data-testid=get-code]");
    await asked;
    expect(await page.getByTestId("get-code").isDisabled()).toBe(true);
    expect(await page.getByTestId("get-code").textContent()).toMatch(/^Resend \((30|29|28)\)$/);
    expect(await page.locator("input[name=verification_code]").count()).toBe(1);
    await ui.session.root.put("/api/option/", { key: "EmailVerificationEnabled", value: "false" });
  });
});

describe("sign-in", () => {
  test("wrong credentials show the server's refusal", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/login");
    await submitLogin(page, "root", "not-the-password");
    expect(await toastText(page, "error")).toBe("username or password is incorrect, or the user has been banned");
  });

  test("typing root / 123456 shows the factory-default warning", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/login");
    await page.fill("input[name=username]", "root");
    await page.fill("input[name=password]", "123456");
    expect(await page.getByTestId("default-password-warning").isVisible()).toBe(true);
    await page.fill("input[name=password]", "1234567");
    expect(await page.getByTestId("default-password-warning").count()).toBe(0);
  });

  test("third-party buttons show only when enabled; the Turnstile widget only when the check is on", async () => {
    const page = await ui.session.page();
    await page.goto("/login");
    expect(await page.getByTestId("third-party").count()).toBe(0);
    expect(await page.getByTestId("turnstile").count()).toBe(0);
    await ui.session.root.put("/api/option/", { key: "GitHubOAuthEnabled", value: "true" });
    await ui.session.root.put("/api/option/", { key: "TurnstileSiteKey", value: "1x00000000000000000000AA" });
    await ui.session.root.put("/api/option/", { key: "TurnstileCheckEnabled", value: "true" });
    await page.route("https://challenges.cloudflare.com/**", (route) => route.abort());
    await page.reload();
    await page.getByTestId("third-party").waitFor();
    expect(await page.getByTestId("third-party").textContent()).toContain("GitHub");
    expect(await page.getByTestId("turnstile").count()).toBe(1);
    await submitLogin(page, "root", ROOT_PASSWORD);
    expect(await toastText(page, "info")).toBe("请稍后几秒重试，Turnstile 正在检查用户环境");
    for (const key of ["GitHubOAuthEnabled", "TurnstileCheckEnabled"])
      await ui.session.root.put("/api/option/", { key, value: "false" });
  });

  test("signing out asks POST /api/user/logout, which ends the session, and clears the local user record", async () => {
    const page = await ui.session.page();
    await signIn(page, "root", ROOT_PASSWORD);
    const session = (await page.context().cookies()).find((cookie) => cookie.name === "session")!.value;
    const userId = String(await page.evaluate(() => JSON.parse(localStorage.getItem("user")!).id));
    const self = () =>
      fetch(new URL("/api/user/self", page.url()), {
        headers: { cookie: `session=${session}`, "new-api-user": userId },
      });
    expect((await self()).status).toBe(200);
    // The menu opens on focus: a re-render of the page still loading could take it away before the click.
    await page.waitForLoadState("networkidle");
    await page.click("[data-testid=user-menu]");
    const signedOut = page.waitForResponse(
      (r) => r.url().endsWith("/api/user/logout") && r.request().method() === "POST",
    );
    await page.click("[data-testid=logout]");
    expect((await (await signedOut).json()).success).toBe(true);
    await page.waitForURL("**/login");
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
    expect((await self()).status).toBe(401);
  });
});

describe("password reset screens", () => {
  test("/reset asks GET /api/reset_password?email= and waits 30 seconds before the next send", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/reset");
    await page.fill("input[name=email]", "someone@example.com");
    const asked = page.waitForRequest("**/api/reset_password?email=someone%40example.com*");
    await page.click("[data-testid=reset-form] button[type=submit]");
    await asked;
    expect(await page.locator("[data-testid=reset-form] button[type=submit]").isDisabled()).toBe(true);
  });

  test("/user/reset posts the email and token of its link to /api/user/reset and shows the new password", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.route("**/api/user/reset", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({ success: true, message: "", data: "n3w-Passw0rd" }),
      }),
    );
    await page.goto("/user/reset?email=a%40example.com&token=tok123");
    const sent = page.waitForRequest("**/api/user/reset");
    await page.getByRole("button", { name: "Reset my password" }).click();
    expect((await sent).postDataJSON()).toEqual({ email: "a@example.com", token: "tok123" });
    expect(await page.locator("input[name=new-password]").inputValue()).toBe("n3w-Passw0rd");
  });
});

describe("first-run setup", () => {
  test("without a root account every screen leads to /setup, which creates it", async () => {
    const fresh = await startConsole({});
    try {
      const page = await fresh.page({ language: "en" });
      await page.goto("/login");
      await page.waitForURL("**/setup");
      await page.fill("input[name=password]", "first-root-pass");
      await page.fill("input[name=confirmPassword]", "first-root-pass");
      const sent = page.waitForRequest("**/api/setup");
      await page.click("[data-testid=setup-form] button[type=submit]");
      expect((await sent).postDataJSON()).toEqual({
        username: "root",
        password: "first-root-pass",
        confirmPassword: "first-root-pass",
      });
      await page.waitForURL("**/login");
      await signIn(page, "root", "first-root-pass");
    } finally {
      await fresh.stop();
    }
  }, 60_000);
});
