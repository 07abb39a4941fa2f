import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { ROOT_PASSWORD, screenshot, signIn, useConsole } from "./support/console";
import { callAs } from "./support/relay-calls";

const ui = useConsole();
const PHONE = { width: 390, height: 844 };
let upstream: FakeUpstream;
let phone: Page;

beforeAll(async () => {
  upstream = startFakeUpstream();
  const root = ui.session.root;
  await root.post("/api/channel/", {
    type: 1,
    name: "narrow",
    key: "sk-fake",
    base_url: upstream.url,
    models: "narrow-model",
    group: "default",
  });
  await callAs(ui.session, "narrow-model", ["curl/8.5.0"]);
  await root.post("/api/redemption/", { name: "narrow", quota: 100_000, count: 1 });
  await root.post("/api/token/", { name: "narrow" });
  phone = await ui.session.page({ ...PHONE, language: "en" });
  await signIn(phone, "root", ROOT_PASSWORD);
}, 30_000);
afterAll(() => upstream?.stop());

/**
 * Brings the first row into view by scrolling the page up and down only, then answers where the row's action
 * button is, whether it is the element at that point (not covered), and how far its table is scrolled sideways.
 */
async function actionButtonPlace(page: Page, table: string, button: string) {
  const target = page.locator(`[data-testid=${table}] tr[data-row]`).first().locator(button).last();
  await target.waitFor();
  return target.evaluate((el) => {
    const main = el.closest("main")!;
    main.scrollTop += el.getBoundingClientRect().top - 200;
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      left: box.left,
      right: box.right,
      onTop: hit !== null && el.contains(hit),
      scrolledSideways: el.closest(".overflow-x-auto")!.scrollLeft,
    };
  });
}

describe("tables on a 390×844 phone keep their row actions reachable without a sideways scroll", () => {
  test.each([
    ["/channel", "channels-table", "td:last-child button"],
    ["/token", "tokens-table", "td:last-child button"],
    ["/user", "users-table", "td:last-child button"],
    ["/redemption", "redemptions-table", "td:last-child button"],
    ["/log", "log-table", "[data-testid=expand]"],
  ])("%s: the row's last action button is on screen and clickable", async (path, table, button) => {
    await phone.goto(path);
    const place = await actionButtonPlace(phone, table, button);
    expect(place.scrolledSideways).toBe(0);
    expect(place.left).toBeGreaterThanOrEqual(0);
    expect(place.right).toBeLessThanOrEqual(PHONE.width);
    expect(place.onTop).toBe(true);
    await screenshot(phone, `narrow${path.replace("/", "-")}`, "en");
  });
});

describe("row action buttons carry icons", () => {
  const editButton = (page: Page) =>
    page.locator("[data-testid=tokens-table] tr[data-row]").first().getByRole("button", { name: "Edit" });
  const textWidth = async (page: Page) => (await editButton(page).locator("span").boundingBox())?.width ?? 0;

  test("on a phone only the icon shows, the text staying the button's name; on a desktop both show", async () => {
    await phone.goto("/token");
    await editButton(phone).waitFor();
    expect(await editButton(phone).locator("svg").count()).toBe(1);
    expect(await textWidth(phone)).toBeLessThanOrEqual(1);

    const desktop = await ui.session.page({ language: "en" });
    await signIn(desktop, "root", ROOT_PASSWORD);
    await desktop.goto("/token");
    await editButton(desktop).waitFor();
    expect(await editButton(desktop).locator("svg").count()).toBe(1);
    expect(await textWidth(desktop)).toBeGreaterThan(10);
    await desktop.close();
  });
});
