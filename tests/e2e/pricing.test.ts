import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { registeredUser, screenshot, signIn, useConsole } from "./support/console";

const ui = useConsole();

beforeAll(async () => {
  const root = ui.session.root;
  await root.post("/api/channel/", {
    type: 1,
    name: "priced",
    key: "sk-priced",
    models: "price-a,price-b,price-c",
    group: "default,vip",
  });
  const options: Record<string, unknown> = {
    ModelRatio: { "price-a": 1.5, "price-b": 0.25 },
    CompletionRatio: { "price-a": 2 },
    ModelPrice: { "price-c": 0.05 },
    GroupRatio: { default: 1, vip: 4, svip: 6 },
  };
  for (const [key, value] of Object.entries(options))
    await root.put("/api/option/", { key, value: JSON.stringify(value) });
});

const row = (page: Page, model: string) => page.locator("[data-testid=pricing-table] tr[data-row]", { hasText: model });
const priceOf = (page: Page, model: string) => row(page, model).getByTestId("price").textContent();

async function pricing(language: "en" | "zh" = "en"): Promise<Page> {
  const page = await ui.session.page({ language });
  await page.goto("/pricing");
  await row(page, "price-a").waitFor();
  return page;
}

describe("pricing screen (public)", () => {
  test("a visitor sees every priced model, with prices per 1M tokens = ratio × 2 × group ratio, completion × completion ratio", async () => {
    const page = await pricing();
    expect(await page.locator("[data-testid=pricing-table] tr[data-row]").count()).toBe(3);
    expect(await priceOf(page, "price-a")).toBe("Input $3.00 / 1M tokensOutput $6.00 / 1M tokens");
    expect(await priceOf(page, "price-b")).toBe("Input $0.50 / 1M tokensOutput $0.50 / 1M tokens");
    expect(await priceOf(page, "price-c")).toBe("$0.05 per call");
    expect(await row(page, "price-c").textContent()).toContain("Per call");
    expect(await row(page, "price-a").getByTestId("model-groups").textContent()).toBe("defaultvip");
  });

  test("another group's ratio applies to the prices; ratio tags are coloured (4x orange, 1x green)", async () => {
    const page = await pricing();
    expect(
      await page.locator("[data-testid=group-picker] [data-group=default] .badge").getAttribute("class"),
    ).toContain("badge-success");
    await page.click("[data-testid=group-picker] [data-group=vip]");
    expect(await priceOf(page, "price-a")).toBe("Input $12.00 / 1M tokensOutput $24.00 / 1M tokens");
    expect(await priceOf(page, "price-c")).toBe("$0.20 per call");
    expect(await row(page, "price-a").getByTestId("group-ratio").getAttribute("class")).toContain("badge-warning");
    expect(await row(page, "price-a").getByTestId("group-ratio").textContent()).toBe("4x");
  });

  test("prices read in quota units on request, and the search narrows the models", async () => {
    const page = await pricing();
    await page.click("button[data-unit=quota]");
    expect(await priceOf(page, "price-a")).toBe("Input 1.5M / 1M tokensOutput 3M / 1M tokens");
    await page.fill("input[name=model-search]", "PRICE-B");
    await page.waitForFunction(
      () => document.querySelectorAll("[data-testid=pricing-table] tr[data-row]").length === 1,
    );
    expect(await row(page, "price-b").count()).toBe(1);
    await page.fill("input[name=model-search]", "nothing");
    await page.getByText("No data").waitFor();
  });

  test("a signed-in user sees only their usable groups; a site showing tokens starts in quota units", async () => {
    await ui.session.root.put("/api/option/", { key: "DisplayInCurrencyEnabled", value: "false" });
    const user = await registeredUser(ui.session);
    const page = await ui.session.page({ language: "en" });
    await signIn(page, user.username, "password123");
    await page.goto("/pricing");
    await row(page, "price-a").waitFor();
    expect(
      await page
        .locator("[data-testid=group-picker] [data-group]")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-group"))),
    ).toEqual(["default", "vip"]);
    expect(await priceOf(page, "price-a")).toBe("Input 1.5M / 1M tokensOutput 3M / 1M tokens");
    await ui.session.root.put("/api/option/", { key: "DisplayInCurrencyEnabled", value: "true" });
  });

  test("screenshots in both languages and the phone layout", async () => {
    for (const language of ["zh", "en"] as const) await screenshot(await pricing(language), "pricing", language);
    const phone = await ui.session.page({ language: "zh", width: 375 });
    await phone.goto("/pricing");
    await row(phone, "price-a").waitFor();
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
    await screenshot(phone, "pricing-mobile", "zh");
  }, 60_000);
});
