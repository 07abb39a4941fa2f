import { describe, expect, test } from "bun:test";
import { registeredUser, ROOT_PASSWORD, signIn, submitLogin, toastText, useConsole } from "./support/console";

const ui = useConsole();

describe("the shell", () => {
  test("an unknown address shows 'page does not exist, please check your browser address'", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/no/such/screen");
    expect(await page.getByTestId("not-found").textContent()).toContain(
      "The page does not exist, please check your browser address.",
    );
  });

  test("the language is Chinese when unset, switches to English and back, and is kept in localStorage", async () => {
    const page = await ui.session.page();
    await page.goto("/login");
    expect(await page.locator("h1").textContent()).toBe("登录");
    await page.selectOption("[data-testid=language]", "en");
    expect(await page.locator("h1").textContent()).toBe("Sign in");
    await page.reload();
    expect(await page.locator("h1").textContent()).toBe("Sign in");
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBe('"en"');
    await page.selectOption("[data-testid=language]", "zh");
    expect(await page.locator("h1").textContent()).toBe("登录");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh");
  });

  test("the theme toggle switches light and dark and is kept in localStorage", async () => {
    const page = await ui.session.page();
    await page.goto("/");
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const first = await theme();
    await page.click("[data-testid=theme-toggle]");
    const second = await theme();
    expect(second).not.toBe(first);
    await page.reload();
    expect(await theme()).toBe(second);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe(JSON.stringify(second));
  });

  test("the header and page title show the system name; the footer shows the default credit with the version", async () => {
    await ui.session.root.put("/api/option/", { key: "SystemName", value: "Acme Gate" });
    const page = await ui.session.page({ language: "en" });
    await page.goto("/");
    await page.waitForFunction(() => document.title === "Acme Gate");
    expect(await page.getByTestId("brand").textContent()).toContain("Acme Gate");
    expect(await page.getByTestId("footer").textContent()).toContain("Tollgate 0.1.2.7.2");
    expect(await page.getByTestId("brand").locator("img").getAttribute("src")).toBe("/logo.png");
    expect((await page.request.get("/logo.png")).headers()["content-type"]).toBe("image/png");
    await ui.session.root.put("/api/option/", { key: "SystemName", value: "Tollgate" });
  });

  test("admin-written footer HTML is sanitized before it is shown", async () => {
    await ui.session.root.put("/api/option/", {
      key: "Footer",
      value: '<b id="credit">Acme</b><img src=x onerror="window.pwned=1"><script>window.pwned=2</script>',
    });
    const page = await ui.session.page();
    await page.goto("/about");
    await page.locator("#credit").waitFor();
    expect(await page.evaluate(() => (window as any).pwned)).toBeUndefined();
    expect(await page.locator("footer script").count()).toBe(0);
    expect(await page.locator("footer img").getAttribute("onerror")).toBeNull();
    await ui.session.root.put("/api/option/", { key: "Footer", value: "" });
  });

  test("protected screens send a visitor without a local user record to /login", async () => {
    const page = await ui.session.page();
    await page.goto("/setting");
    await page.waitForURL("**/login");
    expect(page.url()).toEndWith("/login");
  });

  test("a 401 from any call goes to /login?expired=true with 'not logged in or session expired'", async () => {
    const page = await ui.session.page({ language: "en" });
    await signIn(page, "root", ROOT_PASSWORD);
    // A call of the token page's still in flight when the cookies go is answered 401 too, and forgets the user there:
    // the next page would then send a visitor without a record to plain /login. The record is put back once, before
    // the next page's own scripts run, so that page is the one whose call meets the expired session.
    const record = await page.evaluate(() => localStorage.getItem("user"));
    expect(record).not.toBeNull();
    await page.waitForLoadState("networkidle");
    await page.context().clearCookies();
    await page.addInitScript((user) => {
      if (sessionStorage.getItem("record-restored")) return;
      sessionStorage.setItem("record-restored", "1");
      localStorage.setItem("user", user);
    }, record!);
    await page.goto("/setting?tab=personal");
    await page.waitForURL("**/login?expired=true");
    expect(await page.getByTestId("expired").textContent()).toBe("not logged in or session expired");
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
  });

  test("the side menu shows admin items for role >= 10 only, and drawing/tasks/dashboard only when enabled", async () => {
    const admin = await ui.session.page();
    await signIn(admin, "root", ROOT_PASSWORD);
    const items = (page: typeof admin) =>
      page
        .locator("[data-testid=side-menu] [data-menu]")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-menu")));
    expect(await items(admin)).toEqual([
      "playground",
      "channel",
      "chat",
      "token",
      "detail",
      "redemption",
      "topup",
      "user",
      "log",
      "midjourney",
      "task",
      "setting",
    ]);

    await ui.session.root.put("/api/option/", { key: "DrawingEnabled", value: "false" });
    const user = await registeredUser(ui.session);
    const page = await ui.session.page();
    await signIn(page, user.username, "password123");
    expect(await items(page)).toEqual(["playground", "chat", "token", "detail", "topup", "log", "task", "setting"]);
    await ui.session.root.put("/api/option/", { key: "DrawingEnabled", value: "true" });
  });

  test("default_collapse_sidebar starts the side menu collapsed; the toggle opens it", async () => {
    await ui.session.root.put("/api/option/", { key: "DefaultCollapseSidebar", value: "true" });
    const page = await ui.session.page();
    await signIn(page, "root", ROOT_PASSWORD);
    expect(await page.getByTestId("side-menu").count()).toBe(0);
    await page.click("[data-testid=sidebar-toggle]");
    await page.getByTestId("side-menu").waitFor();
    await ui.session.root.put("/api/option/", { key: "DefaultCollapseSidebar", value: "false" });
  });

  test("at 600 px wide the top links fold into a menu and the side menu starts closed", async () => {
    const page = await ui.session.page({ width: 600, height: 900, language: "en" });
    await signIn(page, "root", ROOT_PASSWORD);
    expect(await page.locator("nav[aria-label='top navigation']").isVisible()).toBe(false);
    expect(await page.getByTestId("mobile-nav").isVisible()).toBe(true);
    expect(await page.getByTestId("side-menu").count()).toBe(0);
    await page.click("[data-testid=sidebar-toggle]");
    await page.click("[data-menu=setting]");
    await page.waitForURL("**/setting");
    expect(await page.getByTestId("side-menu").count()).toBe(0);
    const wide = await ui.session.page({ width: 601 });
    await wide.goto("/");
    expect(await wide.locator("nav[aria-label='top navigation']").isVisible()).toBe(true);
  });
});

describe("the error catalogue", () => {
  const cases: [string, number, string][] = [
    ["429", 429, "too many requests, please try again later"],
    ["500", 500, "internal server error, contact the administrator"],
  ];
  for (const [name, status, text] of cases) {
    test(`${name} answers show '${text}'`, async () => {
      const page = await ui.session.page({ language: "en" });
      await page.goto("/login");
      await page.route("**/api/user/login*", (route) => route.fulfill({ status, body: "{}" }));
      await page.fill("input[name=username]", "root");
      await page.fill("input[name=password]", "whatever");
      await page.click("[data-testid=login-form] button[type=submit]");
      expect(await toastText(page, "error")).toBe(text);
    });
  }

  test("405 shows the notice 'this site is demo only, no server'", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/login");
    await page.route("**/api/user/login*", (route) => route.fulfill({ status: 405, body: "" }));
    await submitLogin(page, "root", "whatever");
    expect(await toastText(page, "info")).toBe("this site is demo only, no server");
  });

  test("a transport failure shows 'error ...'", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/login");
    await page.route("**/api/user/login*", (route) => route.abort("connectionrefused"));
    await submitLogin(page, "root", "whatever");
    expect(await toastText(page, "error")).toStartWith("error: ");
  });
});
