import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { DEFAULT_QUOTA_DISPLAY, formatQuota } from "../../src/shared/quota-format";
import type { ApiClient } from "../support/client";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { registeredUser, ROOT_PASSWORD, screenshot, signIn, toastText, useConsole } from "./support/console";

const ui = useConsole({ rootPage: true });
const MODEL = "log-model";
/** The fake upstream waits 3.5 s before answering this one: an orange first-token time. */
const SLOW_MODEL = "fake-slow-3500ms";
let upstream: FakeUpstream;
let user: ApiClient;

/** One playground call of the user; answers once its log row is listed. */
async function call(model: string, stream: boolean) {
  const before = (await user.get("/api/log/self?type=2")).body.data.total;
  const reply = await user.request("POST", "/pg/chat/completions", {
    model,
    stream,
    messages: [{ role: "user", content: "hi" }],
  });
  expect(reply.status).toBe(200);
  while ((await user.get("/api/log/self?type=2")).body.data.total === before) await Bun.sleep(20);
}

beforeAll(async () => {
  upstream = startFakeUpstream();
  const root = ui.session.root;
  await root.post("/api/channel/", {
    type: 1,
    name: "fake",
    key: "sk-fake",
    base_url: upstream.url,
    models: `${MODEL},${SLOW_MODEL}`,
    group: "default",
  });
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [MODEL]: 1, [SLOW_MODEL]: 2 }) });
  await root.put("/api/option/", { key: "QuotaForNewUser", value: "5000000" });
  user = await registeredUser(ui.session);
  await call(MODEL, false);
  await call(MODEL, true);
}, 30_000);
afterAll(() => upstream?.stop());

async function userLogPage(language: "en" | "zh" = "en", width?: number): Promise<Page> {
  const page = await ui.session.page({ language, width });
  await signIn(page, user.username, "password123");
  await page.goto("/log");
  await page.locator("[data-testid=log-table] tr[data-row]").first().waitFor();
  return page;
}

const rows = (page: Page) => page.locator("[data-testid=log-table] tr[data-row]");
const headers = (page: Page) => page.locator("[data-testid=log-table] thead th").allTextContents();

describe("log screen (own logs)", () => {
  test("summary tags show the quota consumed, RPM and TPM; rows come from /api/log/self without channel or user", async () => {
    const page = await userLogPage();
    const stat = (await user.get("/api/log/self/stat")).body.data;
    expect(stat.rpm).toBe(2);
    await page.getByTestId("stat-rpm").filter({ hasText: "RPM: 2" }).waitFor();
    expect(await page.getByTestId("stat-tpm").textContent()).toBe(`TPM: ${stat.tpm}`);
    expect(stat.quota).toBeGreaterThan(0);
    expect(stat.quota).toBeLessThan(5000);
    // Under a cent, the amount still shows its digits (issue #22: never $0.00 for a non-zero amount).
    expect(await page.getByTestId("stat-quota").textContent()).toBe(
      `Consumed: ${formatQuota(stat.quota, DEFAULT_QUOTA_DISPLAY)}`,
    );
    expect(await page.getByTestId("stat-quota").textContent()).not.toBe("Consumed: $0.00");
    const total = (await user.get("/api/log/self")).body.data.total;
    expect(await rows(page).count()).toBe(total);
    expect(await headers(page)).not.toContain("Channel");
    expect(await headers(page)).not.toContain("User");
    expect(await page.locator("input[name=channel]").count()).toBe(0);
  });

  test("a row expands into its details: ratios, the billing formula, the request id", async () => {
    const page = await userLogPage();
    const streamRow = rows(page).filter({ hasText: "Stream" }).filter({ hasNotText: "Non-stream" });
    await streamRow.getByTestId("expand").click();
    const details = page.getByTestId("log-details");
    await details.waitFor();
    const text = await details.textContent();
    expect(text).toContain("Model ratio1");
    expect(text).toContain("Group ratio1");
    expect(text).toMatch(/Billing1 × 1 × \(10 \+ 4 × 1\) \/ 500000 = \$0\.000028/);
    expect(text).not.toContain("Channels tried");
    await streamRow.getByTestId("expand").click();
    expect(await details.count()).toBe(0);
  });

  test("latency colours: a first token after 3.5 s is orange, a total time up to 100 s green", async () => {
    await call(SLOW_MODEL, true);
    const page = await userLogPage();
    const slow = rows(page).filter({ hasText: SLOW_MODEL });
    expect(await slow.getByTestId("first-token").getAttribute("class")).toContain("badge-warning");
    expect(await slow.getByTestId("use-time").getAttribute("class")).toContain("badge-success");
    const fast = rows(page)
      .filter({ hasText: MODEL })
      .filter({ hasText: "Stream" })
      .filter({ hasNotText: "Non-stream" });
    expect(await fast.getByTestId("first-token").getAttribute("class")).toContain("badge-success");
  }, 30_000);

  test("filters: model name and log type narrow the list; an empty match says No data", async () => {
    const page = await userLogPage();
    await page.fill("[data-testid=log-filters] input[name=model_name]", MODEL);
    await page.click("[data-testid=log-filters] button[type=submit]");
    await page.waitForFunction(
      (m) =>
        [...document.querySelectorAll("[data-testid=log-table] tr[data-row]")].every((r) => r.textContent!.includes(m)),
      MODEL,
    );
    await page.fill("[data-testid=log-filters] input[name=model_name]", "");
    await page.selectOption("[data-testid=log-filters] select[name=type]", "1");
    await page.click("[data-testid=log-filters] button[type=submit]");
    await page.getByText("No data").waitFor();
    await page.fill("[data-testid=log-filters] input[name=token_name]", "no-such-token");
    await page.selectOption("[data-testid=log-filters] select[name=type]", "0");
    const listed = page.waitForRequest(
      (r) => r.url().includes("/api/log/self?") && r.url().includes("token_name=no-such-token"),
    );
    await page.click("[data-testid=log-filters] button[type=submit]");
    expect(new URL((await listed).url()).searchParams.get("start_timestamp")).toMatch(/^\d+$/);
    await page.getByText("No data").waitFor();
  });

  test("a start after the end is refused by the server with its message", async () => {
    const page = await userLogPage();
    await page.fill("[data-testid=log-filters] input[name=start]", "2030-01-02T00:00");
    await page.fill("[data-testid=log-filters] input[name=end]", "2030-01-01T00:00");
    await page.click("[data-testid=log-filters] button[type=submit]");
    expect(await toastText(page, "error")).toBe("start_timestamp must not be after end_timestamp");
  });

  test("column settings hide a column, and the choice is kept locally (log-columns)", async () => {
    const page = await userLogPage();
    expect(await headers(page)).toContain("IP");
    await page.click("[data-testid=column-settings]");
    await page.locator("[data-testid=column-menu] input[data-column=ip]").uncheck();
    expect(await headers(page)).not.toContain("IP");
    expect(await page.evaluate(() => localStorage.getItem("log-columns"))).toBe('{"ip":false}');
    await page.reload();
    await rows(page).first().waitFor();
    expect(await headers(page)).not.toContain("IP");
  });

  test("CSV export downloads the filtered rows", async () => {
    const page = await userLogPage();
    await page.fill("[data-testid=log-filters] input[name=model_name]", MODEL);
    await page.click("[data-testid=log-filters] button[type=submit]");
    const download = page.waitForEvent("download");
    await page.click("[data-testid=export-csv]");
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^logs-\d{8}-\d{6}\.csv$/);
    const lines = readFileSync((await file.path())!, "utf8")
      .trim()
      .split("\n");
    expect(lines[0]).toContain("model_name");
    expect(lines.slice(1).every((line) => line.includes(MODEL))).toBe(true);
    expect(lines.length).toBe(3);
  });
});

describe("log screen (admin)", () => {
  test("shows every user's rows with channel and user; filters by username and channel id", async () => {
    const page = ui.page;
    await page.goto("/log");
    await page.fill("[data-testid=log-filters] input[name=username]", user.username);
    await page.fill("[data-testid=log-filters] input[name=channel]", "1");
    const listed = page.waitForRequest(
      (r) => r.url().includes("/api/log/?") && r.url().includes(`username=${user.username}`),
    );
    await page.click("[data-testid=log-filters] button[type=submit]");
    expect(new URL((await listed).url()).searchParams.get("channel")).toBe("1");
    await rows(page).first().waitFor();
    expect(await headers(page)).toEqual(expect.arrayContaining(["Channel", "User"]));
    expect(await rows(page).first().textContent()).toContain("#1 fake");
    await rows(page).first().getByTestId("expand").click();
    expect(await page.getByTestId("log-details").textContent()).toContain("Channels tried#1");
  });

  test("the user info popup shows the user's balance, used quota, requests and group", async () => {
    await ui.page.goto("/log");
    await rows(ui.page).filter({ hasText: user.username }).first().getByTestId("user-info").click();
    const info = ui.page.getByTestId("user-info-table");
    await info.getByText(user.username).waitFor();
    const self = (await user.get("/api/user/self")).body.data;
    const text = await info.textContent();
    expect(text).toContain(`Requests${self.request_count}`);
    expect(text).toContain("Groupdefault");
    expect(text).toContain(`Used quota$${(self.used_quota / 500000).toFixed(2)}`);
    await ui.page.getByRole("button", { name: "Close" }).click();
  });

  test("screenshots in both languages, with a row expanded; the phone layout does not overflow", async () => {
    for (const language of ["zh", "en"] as const) {
      const page = await ui.session.page({ language });
      await signIn(page, "root", ROOT_PASSWORD);
      await page.goto("/log");
      await rows(page).first().getByTestId("expand").click();
      await page.getByTestId("log-details").waitFor();
      await screenshot(page, "log", language);
    }
    const phone = await userLogPage("zh", 375);
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
    await screenshot(phone, "log-mobile", "zh");
  }, 60_000);
});
