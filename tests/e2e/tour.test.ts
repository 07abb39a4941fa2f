import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DEFAULT_QUOTA_DISPLAY, formatQuota } from "../../src/shared/quota-format";
import type { ApiClient } from "../support/client";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { registeredUser, ROOT_PASSWORD, signIn, useConsole } from "./support/console";

/**
 * Issue #22's walk-through: every route of both specs as visitor, user, admin and root, at 1366×900 and
 * 390×844, in zh and en, light and dark. Each page is saved as a screenshot (under TOLLGATE_SCREENSHOTS,
 * else a temp folder). zh/light and en/dark are walked in full: at the desktop width each page is checked
 * with axe-core for serious and critical accessibility violations, in both themes. The other two looks
 * (zh/dark, en/light) are a cheaper pass: one sign-in per role and width, the look switched in place, one
 * screenshot and the sideways-scroll check per route.
 */
const ui = useConsole();
const SHOTS = process.env.TOLLGATE_SCREENSHOTS ?? join(tmpdir(), "tollgate-tour");
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const MODEL = "tour-model";
const PASSWORD = "password123";

type Role = "visitor" | "user" | "admin" | "root";
const VISITOR_ROUTES = ["/", "/pricing", "/about", "/login", "/register", "/reset", "/no-such-page"];
const USER_ROUTES = ["/", "/token", "/playground", "/topup", "/log", "/detail", "/setting", "/pricing", "/about"];
const ADMIN_ROUTES = [...USER_ROUTES, "/channel", "/channel/add", "/redemption", "/user"];
const ROUTES: Record<Role, string[]> = {
  visitor: VISITOR_ROUTES,
  user: USER_ROUTES,
  admin: ADMIN_ROUTES,
  root: ADMIN_ROUTES,
};
const SIZES = [
  { name: "desktop", width: 1366, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
type Look = { language: "zh" | "en"; theme: "light" | "dark" };
const LOOKS: Look[] = [
  { language: "zh", theme: "light" },
  { language: "en", theme: "dark" },
];
const OTHER_LOOKS: Look[] = [
  { language: "zh", theme: "dark" },
  { language: "en", theme: "light" },
];
type Size = (typeof SIZES)[number];

let upstream: FakeUpstream;
const names: Record<Role, string> = { visitor: "", user: "", admin: "", root: "root" };
let user: ApiClient;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  upstream = startFakeUpstream();
  const root = ui.session.root;
  await root.post("/api/channel/", {
    type: 1,
    name: "tour",
    key: "sk-fake",
    base_url: upstream.url,
    models: MODEL,
    group: "default",
  });
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [MODEL]: 1.5 }) });
  await root.put("/api/option/", { key: "QuotaForNewUser", value: "5000000" });
  user = await registeredUser(ui.session, PASSWORD);
  names.user = user.username;
  const admin = await registeredUser(ui.session, PASSWORD);
  names.admin = admin.username;
  await root.post("/api/user/manage", { id: admin.userId, action: "promote" });
  await user.post("/api/token/", { name: "laptop", remain_quota: 500000, expired_time: -1 });
  const reply = await user.request("POST", "/pg/chat/completions", {
    model: MODEL,
    messages: [{ role: "user", content: "hello" }],
  });
  expect(reply.status).toBe(200);
}, 60_000);
afterAll(() => upstream?.stop());

interface Violation {
  where: string;
  rule: string;
  impact: string;
  nodes: string[];
}

async function axeViolations(page: Page, where: string): Promise<Violation[]> {
  // Evaluated through the debugging protocol, which the console's Content-Security-Policy does not govern.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  const results = await page.evaluate(async () => {
    const axe = (window as any).axe; // injected above
    const run = await axe.run(document, { resultTypes: ["violations"] });
    return run.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
      rule: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
  });
  return (results as Omit<Violation, "where">[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ where, ...v }));
}

/**
 * Visits each of the role's routes on a page already in its look and size: a screenshot of each and the
 * sideways-scroll check; with `check`, waits for toasts to go and answers the axe findings.
 */
async function walk(page: Page, role: Role, size: Size, look: Look, check: boolean) {
  const found: Violation[] = [];
  for (const route of ROUTES[role]) {
    await page.goto(route);
    await page.waitForLoadState("networkidle");
    if (check)
      await page
        .locator("[role=alert]")
        .first()
        .waitFor({ state: "detached", timeout: 6000 })
        .catch(() => undefined);
    const name = `${role}-${route.replace(/[/?=]+/g, "_") || "_"}-${size.name}-${look.language}-${look.theme}`;
    const shown = await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme]);
    expect(shown, `${name}: the look`).toEqual([look.language, look.theme]);
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    if (check) found.push(...(await axeViolations(page, `${role} ${route} ${look.theme}`)));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    expect(overflow, `${name}: the page scrolls sideways`).toBeLessThanOrEqual(0);
  }
  return found;
}

/** A page of the role's, signed in, at the size; in `look` from its first load when given. */
async function rolePage(role: Role, size: Size, look?: Look) {
  const page = await ui.session.page({ width: size.width, height: size.height, language: look?.language });
  if (look)
    await page.context().addInitScript(`localStorage.setItem("theme", ${JSON.stringify(JSON.stringify(look.theme))})`);
  if (role !== "visitor") await signIn(page, names[role], role === "root" ? ROOT_PASSWORD : PASSWORD);
  return page;
}

/** The full walk in one look and size; answers the axe findings when asked to check. */
async function tour(role: Role, size: Size, look: Look, check: boolean) {
  const page = await rolePage(role, size, look);
  const found = await walk(page, role, size, look, check);
  await page.context().close();
  return found;
}

/** The cheaper pass: one page per size, switched to each of the other looks through localStorage. */
async function otherLooks(role: Role, size: Size) {
  const page = await rolePage(role, size);
  if (role === "visitor") await page.goto("/");
  for (const look of OTHER_LOOKS) {
    await page.evaluate(({ language, theme }) => {
      localStorage.setItem("language", JSON.stringify(language));
      localStorage.setItem("theme", JSON.stringify(theme));
    }, look);
    await walk(page, role, size, look, false);
  }
  await page.context().close();
}

describe("every route, every kind of visitor, both widths, both languages and themes", () => {
  for (const role of ["visitor", "user", "admin", "root"] as const) {
    test(`${role}: pages render without sideways scroll; axe finds no serious or critical violation`, async () => {
      const found: Violation[] = [];
      for (const size of SIZES)
        for (const look of LOOKS) found.push(...(await tour(role, size, look, size.name === "desktop")));
      if (found.length > 0) console.error(JSON.stringify(found, null, 1));
      expect(found.map((v) => `${v.where}: ${v.rule} (${v.impact})`)).toEqual([]);
    }, 240_000);
  }
});

describe("the other looks, zh/dark and en/light: a screenshot of every route, no sideways scroll", () => {
  for (const role of ["visitor", "user", "admin", "root"] as const) {
    test(`${role}: pages render in the look asked for without sideways scroll`, async () => {
      await Promise.all(SIZES.map((size) => otherLooks(role, size)));
    }, 120_000);
  }
});

describe("the signed-in home (issue #22)", () => {
  test("balance, today's spend and calls, the usable models with prices, and snippets with the user's address and key", async () => {
    const page = await ui.session.page({ language: "en", width: 1366, height: 900 });
    await signIn(page, names.user, PASSWORD);
    await page.goto("/");
    const self = (await user.get("/api/user/self")).body.data;
    const stat = (await user.get("/api/log/self/stat?type=2")).body.data;
    await page.getByTestId("home-balance-value").filter({ hasText: "$" }).waitFor();
    expect(await page.getByTestId("home-balance-value").textContent()).toBe(
      formatQuota(self.quota, DEFAULT_QUOTA_DISPLAY),
    );
    expect(await page.getByTestId("home-spend-value").textContent()).toBe(
      formatQuota(stat.quota, DEFAULT_QUOTA_DISPLAY),
    );
    expect(await page.getByTestId("home-calls-value").textContent()).toBe("1");
    expect(await page.locator(`[data-testid=home-models] tr[data-model=${MODEL}]`).textContent()).toContain(
      "input $3.00 · output $3.00",
    );
    const token = (await user.get("/api/token/?p=1&size=10")).body.data.items[0];
    const key = (await user.post(`/api/token/${token.id}/key`)).body.data.key;
    const snippet = page.getByTestId("snippet");
    await snippet.filter({ hasText: key }).waitFor();
    expect(await snippet.textContent()).toContain(`${ui.session.url}/v1/chat/completions`);
    await page.click("[data-client=codex]");
    expect(await snippet.textContent()).toContain('wire_api = "responses"');
    await page.click("[data-client=claude-code]");
    expect(await snippet.textContent()).toContain(`ANTHROPIC_BASE_URL=${ui.session.url}`);
    // Seen in the phone screenshots: a dashed divider on the cards' right edge, code showing through the copy button.
    const looks = await page.evaluate(() => ({
      divider: getComputedStyle(document.querySelector("[data-testid=home-balance]")!).borderInlineEndWidth,
      copy: getComputedStyle(document.querySelector("[data-testid=copy-snippet]")!).backgroundColor,
    }));
    expect(looks.divider).toBe("0px");
    expect(looks.copy).not.toBe("rgba(0, 0, 0, 0)");
    await page.click("[data-testid=copy-snippet]");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`ANTHROPIC_AUTH_TOKEN=${key}`);
  });

  test("a visitor's home stays the spec's: notice and custom content, else the platform status", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/");
    await page.getByTestId("platform-summary").waitFor();
    expect(await page.getByTestId("user-home").count()).toBe(0);
  });
});

describe("the playground on a phone (issue #22)", () => {
  test("at 390×844 the chat input shows without scrolling; the settings fold under one line and open on a tap", async () => {
    const page = await ui.session.page({ language: "en", width: 390, height: 844 });
    await signIn(page, names.user, PASSWORD);
    await page.goto("/playground");
    const input = page.locator("[data-testid=chat-box] textarea");
    await input.waitFor();
    const box = (await input.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(await page.locator("select[name=model]").isVisible()).toBe(false);
    await page.click("[data-testid=settings-summary]");
    expect(await page.locator("select[name=model]").isVisible()).toBe(true);
    expect(await page.inputValue("select[name=model]")).toBe(MODEL);
  });
});

describe("the header on a phone (found in the en/light screenshots)", () => {
  test("at 390×844 the language picker's text clears its arrow in both languages", async () => {
    for (const language of ["en", "zh"] as const) {
      const page = await ui.session.page({ language, width: 390, height: 844 });
      await page.goto("/pricing");
      const room = await page.getByTestId("language").evaluate((select: HTMLSelectElement) => {
        const style = getComputedStyle(select);
        const context = document.createElement("canvas").getContext("2d")!;
        context.font = style.font;
        const text = context.measureText(select.selectedOptions[0]!.text).width;
        const inside = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return inside - text;
      });
      expect(room, language).toBeGreaterThanOrEqual(0);
      await page.context().close();
    }
  });
});
