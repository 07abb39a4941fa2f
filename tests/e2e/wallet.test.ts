import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { ApiClient } from "../support/client";
import { EPAY_KEY, EPAY_PID, startFakeEpay, type FakeEpay } from "../support/fake-epay";
import { registeredUser, screenshot, signIn, toastText, useConsole } from "./support/console";

const ui = useConsole();
let epay: FakeEpay;

const setOption = async (key: string, value: string) => {
  const reply = await ui.session.root.put("/api/option/", { key, value });
  if (!reply.body.success) throw new Error(`${key}: ${reply.body.message}`);
};

beforeAll(async () => {
  epay = startFakeEpay();
  for (const [key, value] of [
    ["ServerAddress", ui.session.url],
    ["PayAddress", epay.url],
    ["EpayId", EPAY_PID],
    ["EpayKey", EPAY_KEY],
  ]) {
    await setOption(key!, value!);
  }
});
afterAll(() => epay?.stop());

/** Creates one redemption code of `quota` as root. */
async function code(quota: number): Promise<string> {
  const reply = await ui.session.root.post("/api/redemption/", { name: "gift", quota, count: 1 });
  expect(reply.body.success).toBe(true);
  return reply.body.data[0];
}

/** A new user on the wallet screen. */
async function wallet(language: "en" | "zh" = "en", width?: number): Promise<{ page: Page; user: ApiClient }> {
  const user = await registeredUser(ui.session);
  const page = await ui.session.page({ language, width });
  await signIn(page, user.username, "password123");
  await page.goto("/topup");
  await page.getByTestId("stat-balance").waitFor();
  return { page, user };
}

const balance = (user: ApiClient) => user.get("/api/user/self").then((r) => r.body.data.quota as number);

describe("wallet: redeeming a code", () => {
  test("an empty code is refused before calling; a valid code adds its quota and the balance shows it; a used code is refused", async () => {
    const { page, user } = await wallet();
    expect(await page.getByTestId("stat-balance").textContent()).toContain("$0.00");
    await page.click("[data-testid=redeem-submit]");
    expect(await toastText(page, "error")).toBe("Please enter a redemption code");
    const key = await code(1_000_000);
    await page.fill("input[name=redemption-code]", key);
    await page.click("[data-testid=redeem-submit]");
    expect(await toastText(page, "success")).toBe("Redeemed: $2.00 added to your balance");
    await page.getByTestId("stat-balance").filter({ hasText: "$2.00" }).waitFor();
    expect(await page.inputValue("input[name=redemption-code]")).toBe("");
    expect(await balance(user)).toBe(1_000_000);
    await page.fill("input[name=redemption-code]", key);
    await page.click("[data-testid=redeem-submit]");
    expect(await toastText(page, "error")).toBe("the redemption code has already been used");
    await page.fill("input[name=redemption-code]", "not-a-code");
    await page.click("[data-testid=redeem-submit]");
    expect(await toastText(page, "error")).toBe("invalid redemption code");
  }, 30_000);

  test("the get-codes link opens the TopUpLink option; without one the super administrator is named", async () => {
    const { page } = await wallet();
    await page.click("[data-testid=get-codes]");
    expect(await toastText(page, "error")).toBe("The super administrator has not set a top-up link");
    await setOption("TopUpLink", "https://shop.example/codes");
    await page.reload();
    await page.getByTestId("stat-balance").waitFor();
    await page.evaluate(() => {
      (window as any).opened = [];
      window.open = (url?: string | URL) => ((window as any).opened.push(String(url)), null);
    });
    await page.click("[data-testid=get-codes]");
    expect(await page.evaluate(() => (window as any).opened)).toEqual(["https://shop.example/codes"]);
    await setOption("TopUpLink", "");
  });
});

describe("wallet: online top-up through Epay", () => {
  test("an amount below min_topup is refused; the price is shown; the confirmed order posts its signed form to the gateway", async () => {
    await setOption("MinTopUp", "2");
    const { page, user } = await wallet();
    await page.fill("input[name=amount]", "1");
    await page.click("button[data-method=alipay]");
    expect(await toastText(page, "error")).toBe("The top-up amount cannot be less than 2");
    // 0 (or less, or nothing) is forced to at least 1 on leaving the field, and 1 is still refused (spec §5 'Top-up').
    for (const typed of ["0", "-5", ""]) {
      await page.fill("input[name=amount]", typed);
      await page.locator("input[name=amount]").blur();
      expect(await page.inputValue("input[name=amount]")).toBe("1");
    }
    await page.click("button[data-method=alipay]");
    expect(await toastText(page, "error")).toBe("The top-up amount cannot be less than 2");
    expect(await page.locator("[data-testid=pay-confirm]").count()).toBe(0);
    await page.fill("input[name=amount]", "10");
    await page.getByTestId("money").filter({ hasText: "Amount to pay: ¥73.00" }).waitFor();
    await page.click("button[data-method=alipay]");
    expect(await page.getByTestId("pay-confirm").textContent()).toBe("Top up 10 and pay ¥73.00 with Alipay?");
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(epay.orders.size).toBe(0);
    await page.click("button[data-method=wxpay]");
    await page.click("[data-testid=confirm]");
    await page.waitForURL(`${epay.url}/submit.php`);
    expect(await page.locator("body").textContent()).toBe("cashier");
    const [order] = [...epay.orders.values()];
    expect(order).toMatchObject({ pid: EPAY_PID, type: "wxpay", money: "73.00", name: "TUC10" });
    expect((await epay.pay(order!.out_trade_no!)).text).toBe("success");
    expect(await balance(user)).toBe(10 * 500_000);
    await setOption("MinTopUp", "1");
  }, 30_000);

  test("with online top-up off (no Epay key) a payment button says the administrator has not enabled it", async () => {
    await setOption("EpayKey", "");
    const { page } = await wallet();
    await page.getByTestId("online-off").waitFor();
    await page.click("button[data-method=alipay]");
    expect(await toastText(page, "error")).toBe("The administrator has not enabled online top-up");
    await setOption("EpayKey", EPAY_KEY);
  });

  test("screenshots in both languages, the dark theme and the phone layout", async () => {
    for (const language of ["zh", "en"] as const) {
      const { page } = await wallet(language);
      await page.getByTestId("money").filter({ hasText: "¥" }).waitFor();
      await screenshot(page, "topup", language);
    }
    const { page } = await wallet("zh", 375);
    await page.evaluate(() => localStorage.setItem("theme", '"dark"'));
    await page.reload();
    await page.getByTestId("stat-balance").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
      0,
    );
    await screenshot(page, "topup-mobile-dark", "zh");
  }, 60_000);
});
