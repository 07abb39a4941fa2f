import { describe, expect, test } from "bun:test";
import { ROOT_PASSWORD, screenshot, signIn, useConsole } from "./support/console";

const ui = useConsole();
/** Full-page screenshots of long screens take a while on a busy 2-core machine. */
const SLOW = 60_000;

/** Main screens with a heading or text that must read in the screen's language. */
const SCREENS: { name: string; path: string; signedIn: boolean; ready: string; text: Record<"zh" | "en", string> }[] = [
  { name: "home", path: "/", signedIn: false, ready: "platform-summary", text: { zh: "欢迎使用", en: "Welcome to" } },
  {
    name: "login",
    path: "/login",
    signedIn: false,
    ready: "login-form",
    text: { zh: "用户名或邮箱", en: "Username or email" },
  },
  {
    name: "register",
    path: "/register",
    signedIn: false,
    ready: "register-form",
    text: { zh: "确认密码", en: "Confirm password" },
  },
  {
    name: "not-found",
    path: "/missing",
    signedIn: false,
    ready: "not-found",
    text: { zh: "页面不存在", en: "The page does not exist" },
  },
  {
    name: "personal",
    path: "/setting?tab=personal",
    signedIn: true,
    ready: "personal-tab",
    text: { zh: "可用模型", en: "Usable models" },
  },
  { name: "users", path: "/user", signedIn: true, ready: "users-table", text: { zh: "添加用户", en: "Add user" } },
  {
    name: "operation",
    path: "/setting?tab=operation",
    signedIn: true,
    ready: "operation-tab",
    text: { zh: "模型价格", en: "Model prices" },
  },
  {
    name: "system",
    path: "/setting?tab=system",
    signedIn: true,
    ready: "system-tab",
    text: { zh: "登录与注册", en: "Sign-in and registration" },
  },
  {
    name: "other",
    path: "/setting?tab=other",
    signedIn: true,
    ready: "other-tab",
    text: { zh: "首页内容", en: "Home page content" },
  },
];

for (const language of ["zh", "en"] as const) {
  describe(`main screens in ${language}`, () => {
    for (const screen of SCREENS) {
      test(
        `${screen.name} reads in ${language}`,
        async () => {
          const page = await ui.session.page({ language });
          if (screen.signedIn) await signIn(page, "root", ROOT_PASSWORD);
          await page.goto(screen.path);
          await page.getByTestId(screen.ready).waitFor();
          expect(await page.locator("body").textContent()).toContain(screen.text[language]);
          await screenshot(page, screen.name, language);
        },
        SLOW,
      );
    }

    test(
      `the phone layout (375 px) reads in ${language}`,
      async () => {
        const page = await ui.session.page({ language, width: 375, height: 740 });
        await signIn(page, "root", ROOT_PASSWORD);
        await page.goto("/setting?tab=personal");
        await page.getByTestId("personal-tab").waitFor();
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBe(0);
        await screenshot(page, "mobile-personal", language);
        await page.click("[data-testid=sidebar-toggle]");
        await page.getByTestId("side-menu").waitFor();
        await screenshot(page, "mobile-menu", language);
      },
      SLOW,
    );
  });
}

test(
  "the dark theme renders the users screen",
  async () => {
    const page = await ui.session.page({ language: "zh" });
    await page.addInitScript(() => localStorage.setItem("theme", '"dark"'));
    await signIn(page, "root", ROOT_PASSWORD);
    await page.goto("/user");
    await page.getByTestId("users-table").waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await screenshot(page, "users-dark", "zh");
  },
  SLOW,
);
