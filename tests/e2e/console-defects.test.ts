import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { ROOT_PASSWORD, registeredUser, signIn, useConsole } from "./support/console";

/** Defects 3 and 4 of issue #22, each as the first walk-through met it. */
const ui = useConsole();
const LONG_MODEL = "vendor-long-model-name-for-overflow-2026-preview";
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = startFakeUpstream();
  const root = ui.session.root;
  await root.post("/api/channel/", {
    type: 1,
    name: "a-channel-with-a-rather-long-name",
    key: "sk-fake",
    base_url: upstream.url,
    models: LONG_MODEL,
    group: "default",
  });
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [LONG_MODEL]: 1 }) });
  await root.put("/api/option/", { key: "QuotaForNewUser", value: "5000000" });
  const user = await registeredUser(ui.session);
  for (let i = 0; i < 12; i++) {
    const reply = await user.request("POST", "/pg/chat/completions", {
      model: LONG_MODEL,
      messages: [{ role: "user", content: `hello ${i}` }],
    });
    expect(reply.status).toBe(200);
  }
  while ((await root.get("/api/log/?type=2")).body.data.total < 12) await Bun.sleep(20);
}, 60_000);
afterAll(() => upstream?.stop());

async function rootPage(width = 1366, height = 900, language: "en" | "zh" = "en"): Promise<Page> {
  const page = await ui.session.page({ language, width, height });
  await signIn(page, "root", ROOT_PASSWORD);
  return page;
}

async function rootLogPage(language: "en" | "zh" = "en"): Promise<Page> {
  const page = await rootPage(1366, 900, language);
  await page.goto("/log");
  await page.locator("[data-testid=log-table] tr[data-row]").nth(8).waitFor();
  await page.locator("[role=alert]").waitFor({ state: "detached" });
  return page;
}

describe("the log screen at 1366×900 as root", () => {
  test("the closed column menu catches no click: every cell of the first rows receives its own clicks", async () => {
    const page = await rootLogPage();
    const stolen = await page.evaluate(() => {
      const cells = [...document.querySelectorAll("[data-testid=log-table] tr[data-row]")]
        .slice(0, 9)
        .flatMap((row) => [...row.querySelectorAll("td")]);
      return cells
        .map((cell) => {
          const box = cell.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return hit && !cell.contains(hit) ? `${cell.textContent} → ${hit.outerHTML.slice(0, 60)}` : "";
        })
        .filter(Boolean);
    });
    expect(stolen).toEqual([]);
    const before = await page.locator("[data-testid=log-table] thead th").count();
    await page.mouse.click(860, 326);
    await page.keyboard.press("Escape");
    const prefs = await page.evaluate(() => JSON.parse(localStorage.getItem("log-columns") ?? "{}"));
    expect(Object.values(prefs)).not.toContain(false);
    expect(await page.locator("[data-testid=log-table] thead th").count()).toBe(before);
  });

  test("the table fits the screen: IP and details are visible without a sideways scroll", async () => {
    const page = await rootLogPage();
    const fit = await page.evaluate(() => {
      const table = document.querySelector("[data-testid=log-table]")!;
      const frame = table.parentElement!;
      const headers = [...table.querySelectorAll("thead th")].map((th) => ({
        text: th.textContent,
        right: th.getBoundingClientRect().right,
      }));
      return { scroll: frame.scrollWidth, client: frame.clientWidth, window: innerWidth, headers };
    });
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    for (const name of ["IP", "Details"]) {
      const header = fit.headers.find((h) => h.text === name);
      expect(header?.right).toBeLessThanOrEqual(fit.window);
    }
  });
});

describe("the log screen at 1366×900 in Chinese (found in the zh/dark screenshots)", () => {
  test("no Chinese word breaks between its characters: headers and type badges keep one line; the table still fits", async () => {
    const page = await rootLogPage("zh");
    const found = await page.evaluate(() => {
      /** How many lines the element's text takes. */
      const linesOf = (element: Element) => {
        const tops = new Set<number>();
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
        }
        return tops.size;
      };
      const table = document.querySelector("[data-testid=log-table]")!;
      const broken = [...table.querySelectorAll("thead th, td .badge")]
        .filter((element) => /^[\u4e00-\u9fff]+$/.test(element.textContent!.trim()) && linesOf(element) > 1)
        .map((element) => element.textContent);
      const frame = table.parentElement!;
      return { broken, scroll: frame.scrollWidth, client: frame.clientWidth };
    });
    expect(found.broken).toEqual([]);
    expect(found.scroll).toBeLessThanOrEqual(found.client);
  });
});

describe("toasts", () => {
  test("show in a bottom corner, close with their ✕, and a route change clears the previous screen's", async () => {
    const page = await rootPage();
    await page.goto("/topup");
    await page.click("[data-testid=redeem-submit]");
    const toast = page.locator("[role=alert][data-kind=error]");
    await toast.waitFor();
    const box = (await toast.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y + box.height).toBeGreaterThan(viewport.height - 120);
    expect(box.x + box.width).toBeGreaterThan(viewport.width - 120);
    await toast.getByTestId("toast-dismiss").click();
    await toast.waitFor({ state: "detached" });

    await page.click("[data-testid=redeem-submit]");
    await toast.waitFor();
    await page.waitForTimeout(1100);
    await page.click("a[href='/log']");
    await page.waitForURL("**/log");
    await toast.waitFor({ state: "detached", timeout: 1500 });
  });
});

describe("modals and side panels", () => {
  test("the token drawer closes with Escape and with its ✕, and keeps focus inside while open", async () => {
    const page = await rootPage();
    await page.goto("/token");
    await page.click("[data-action=add-token]");
    const form = page.getByTestId("token-form");
    await form.waitFor();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest("dialog[open]"))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await form.waitFor({ state: "detached" });
    await page.click("[data-action=add-token]");
    await form.waitFor();
    await page.getByTestId("dialog-close").click();
    await form.waitFor({ state: "detached" });
  });

  test("the email-bind dialog has a close button and closes with Escape", async () => {
    const page = await rootPage();
    await page.goto("/setting");
    const bind = page.locator("[data-binding=email] button");
    await bind.click();
    const dialog = page.locator("dialog[open]", { hasText: "Bind email" });
    await dialog.waitFor();
    await dialog.getByTestId("dialog-close").click();
    await dialog.waitFor({ state: "detached" });
    await bind.click();
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });
});
