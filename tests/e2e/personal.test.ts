import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { registeredUser, signIn, toastText, useConsole } from "./support/console";

const ui = useConsole();

/** A new ordinary user, signed in on the personal tab. */
async function personalTab(): Promise<{ page: Page; username: string }> {
  const user = await registeredUser(ui.session);
  const page = await ui.session.page({ language: "en" });
  await signIn(page, user.username, "password123");
  await page.goto("/setting?tab=personal");
  await page.getByTestId("personal-tab").waitFor();
  return { page, username: user.username };
}

describe("personal settings", () => {
  test("shows balance, used quota and request count as the site displays quota", async () => {
    await ui.session.root.put("/api/option/", { key: "QuotaForNewUser", value: "1500000" });
    const { page } = await personalTab();
    expect(await page.getByTestId("stat-balance").textContent()).toContain("$3.00");
    expect(await page.getByTestId("stat-used").textContent()).toContain("$0.00");
    expect(await page.getByTestId("stat-requests").textContent()).toContain("0");
    await ui.session.root.put("/api/option/", { key: "DisplayInCurrencyEnabled", value: "false" });
    await page.reload();
    expect(await page.getByTestId("stat-balance").textContent()).toContain("1.5M");
    await ui.session.root.put("/api/option/", { key: "DisplayInCurrencyEnabled", value: "true" });
    await ui.session.root.put("/api/option/", { key: "QuotaForNewUser", value: "0" });
  });

  test("lists the first 10 usable models and offers 'more N models'", async () => {
    const models = Array.from({ length: 13 }, (_, i) => `model-${String(i).padStart(2, "0")}`);
    const { page } = await personalTab();
    await page.route("**/api/user/models", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({ success: true, message: "", data: models }),
      }),
    );
    await page.reload();
    const badges = page.locator("[data-testid=usable-models] .badge");
    await page.getByTestId("more-models").waitFor();
    expect(await badges.count()).toBe(10);
    expect(await page.getByTestId("more-models").textContent()).toBe("more 3 models");
    await page.click("[data-testid=more-models]");
    expect(await badges.count()).toBe(13);
  });

  test("shows the invite link origin/register?aff=CODE and copies it", async () => {
    const { page } = await personalTab();
    const link = page.getByTestId("invite-link");
    await page.waitForFunction(
      () => (document.querySelector("[data-testid=invite-link]") as HTMLInputElement).value !== "",
    );
    const value = await link.inputValue();
    expect(value).toMatch(new RegExp(`^${ui.session.url}/register\\?aff=[A-Za-z0-9]+$`));
    await page.locator("[data-testid=invite] button", { hasText: "Copy" }).click();
    expect(await toastText(page, "success")).toBe("Invite link copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  });

  test("generates a system access token, copies it, and the token works for the API", async () => {
    const { page, username } = await personalTab();
    await page.click("[data-testid=generate-token]");
    expect(await toastText(page, "success")).toBe("Token reset and copied to the clipboard");
    const token = await page.getByTestId("access-token-value").inputValue();
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    const id = JSON.parse((await page.evaluate(() => localStorage.getItem("user")))!).id;
    const script = ui.session.api();
    script.authorization = token;
    script.userId = id;
    expect((await script.get("/api/user/self")).body.data.username).toBe(username);
  });

  test("shows the bindings: email, WeChat, GitHub and Telegram", async () => {
    const { page } = await personalTab();
    const bindings = page.locator("[data-testid=bindings] [data-binding]");
    expect(await bindings.evaluateAll((els) => els.map((e) => e.getAttribute("data-binding")))).toEqual([
      "email",
      "wechat",
      "github",
      "telegram",
    ]);
    expect(await page.locator("[data-binding=email]").textContent()).toContain("not bound");
  });

  test("a password change needs the confirmation to match, then signs out to /login", async () => {
    const { page, username } = await personalTab();
    await page.fill("input[name=original_password]", "password123");
    await page.fill("input[name=new_password]", "new-password-1");
    await page.fill("input[name=confirm_password]", "new-password-2");
    await page.click("[data-testid=password-form] button[type=submit]");
    expect(await toastText(page, "error")).toBe("The two passwords do not match");
    await page.fill("input[name=confirm_password]", "new-password-1");
    await page.click("[data-testid=password-form] button[type=submit]");
    await page.waitForURL("**/login");
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
    await signIn(page, username, "new-password-1");
  });

  test("account deletion needs the username typed, then clears local data and goes to /login", async () => {
    const { page, username } = await personalTab();
    await page.click("[data-testid=delete-account-open]");
    await page.fill("input[name=confirm_username]", "someone-else");
    await page.click("[data-testid=delete-account-confirm]");
    expect(await toastText(page, "error")).toBe("Type your username to confirm");
    await page.fill("input[name=confirm_username]", username);
    await page.click("[data-testid=delete-account-confirm]");
    await page.waitForURL("**/login");
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
    const again = await ui.session.api().login(username, "password123");
    expect(again.body.success).toBe(false);
  });
});
