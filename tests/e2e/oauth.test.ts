import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { INVALID_STATE } from "../../src/service/oauth/state";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, type FakeOAuth, startFakeOAuth } from "../support/fake-oauth";
import { FAKE_BOT_TOKEN, telegramPayload } from "../support/telegram-payload";
import { registeredUser, signIn, toastText, useConsole } from "./support/console";

const ui = useConsole();
let gh: FakeOAuth;
let oidc: FakeOAuth;

beforeAll(async () => {
  gh = await startFakeOAuth("github", { id: 31337, login: "octobrowser", name: "Octo Browser" });
  oidc = await startFakeOAuth("oidc", { id: "browser-sub", login: "oidcbrowser" });
  const settings: Record<string, string> = {
    ServerAddress: ui.session.url,
    GitHubOAuthEnabled: "true",
    GitHubClientId: FAKE_CLIENT_ID,
    GitHubClientSecret: FAKE_CLIENT_SECRET,
    GitHubBaseUrl: gh.url,
    GitHubApiBaseUrl: `${gh.url}/api/v3`,
    OIDCEnabled: "true",
    OIDCClientId: FAKE_CLIENT_ID,
    OIDCClientSecret: FAKE_CLIENT_SECRET,
    OIDCWellKnown: `${oidc.url}/.well-known/openid-configuration`,
    TelegramOAuthEnabled: "true",
    TelegramBotName: "gate_bot",
    TelegramBotToken: FAKE_BOT_TOKEN,
  };
  for (const [key, value] of Object.entries(settings))
    expect((await ui.session.root.put("/api/option/", { key, value })).body.success).toBe(true);
});
afterAll(async () => {
  await gh.stop();
  await oidc.stop();
});

/** Clicks a button that opens the provider in a new window; answers that window once it is back on our site. */
async function viaProvider(page: Page, button: string): Promise<Page> {
  const [popup] = await Promise.all([page.context().waitForEvent("page"), page.click(button)]);
  await popup.waitForURL(`${ui.session.url}/**`);
  return popup;
}

const storedUser = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null"));

describe("third-party sign-in in the console", () => {
  test("the login page's GitHub button signs a new user in through the fake GitHub and lands on /token", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/login");
    const popup = await viaProvider(page, "[data-testid=third-party] button:has-text('GitHub')");
    await popup.waitForURL("**/token");
    expect(await storedUser(popup)).toMatchObject({ username: "octobrowser" });
  });

  test("the OpenID button signs in through the fake OpenID provider (PKCE, id_token)", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/login");
    const popup = await viaProvider(page, "[data-testid=third-party] button:has-text('OpenID')");
    await popup.waitForURL("**/token");
    expect(await storedUser(popup)).toMatchObject({ username: "oidcbrowser" });
  });

  test("a callback with a forged state shows the server's refusal and signs nobody in", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/oauth/github?code=abc&state=forgedforgedforgedforgedforged12");
    expect(await page.getByTestId("oauth-refusal").textContent()).toBe(INVALID_STATE);
    expect(await storedUser(page)).toBeNull();
  });

  test("personal settings bind GitHub through the provider, then unbind it", async () => {
    gh.account = { id: 42424, login: "bindme" };
    const user = await registeredUser(ui.session);
    const page = await ui.session.page({ language: "en" });
    await signIn(page, user.username, "password123");
    await page.goto("/setting?tab=personal");
    await page.getByTestId("bindings").waitFor();
    expect(await page.getByTestId("binding-github").textContent()).toBe("not bound");
    const popup = await viaProvider(page, "[data-binding=github] button:has-text('Bind')");
    await popup.waitForURL("**/setting?tab=personal");
    await popup.waitForFunction(() => document.querySelector("[data-testid=binding-github]")?.textContent === "42424");
    // The bind's own toast is read (and dismissed) first, so the next one read is the unbind's.
    expect(await toastText(popup, "success")).toBe("Bound");
    await popup.click("[data-binding=github] button:has-text('Unbind')");
    expect(await toastText(popup, "success")).toBe("Unbound");
    await popup.waitForFunction(
      () => document.querySelector("[data-testid=binding-github]")?.textContent === "not bound",
    );
    expect((await user.get("/api/user/self")).body.data.github_id).toBe("");
  });

  test("Telegram's return to /oauth/telegram signs in (then /); /oauth/telegram/bind binds the signed-in user", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto(`/oauth/telegram?${new URLSearchParams(telegramPayload({ id: "777001", username: "tgbrowser" }))}`);
    await page.waitForURL(`${ui.session.url}/`);
    expect(await storedUser(page)).toMatchObject({ username: "tgbrowser" });

    const user = await registeredUser(ui.session);
    const binder = await ui.session.page({ language: "en" });
    await signIn(binder, user.username, "password123");
    await binder.goto(`/oauth/telegram/bind?${new URLSearchParams(telegramPayload({ id: "777002" }))}`);
    await binder.waitForURL("**/setting?tab=personal");
    await binder.waitForFunction(
      () => document.querySelector("[data-testid=binding-telegram]")?.textContent === "777002",
    );
  });
});
