import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { ApiClient } from "../support/client";
import {
  registeredUser,
  ROOT_PASSWORD,
  screenshot,
  signIn,
  startConsole,
  toastText,
  type ConsoleSession,
} from "./support/console";

/** The hourly rollups are written every DataExportInterval minutes; the test writes them into the gateway's SQLite file. */
const dir = mkdtempSync(join(tmpdir(), "tollgate-detail-"));
const SQLITE_PATH = join(dir, "detail.db");
const lastHour = Math.floor(Date.now() / 3_600_000) * 3600 - 3600;
let session: ConsoleSession;
let user: ApiClient;

beforeAll(async () => {
  session = await startConsole({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, SQLITE_PATH });
  user = await registeredUser(session);
  const mine = { user_id: user.userId!, username: user.username };
  const rows = [
    { ...mine, model_name: "m-a", created_at: lastHour, count: 3, quota: 1_000_000, token_used: 300 },
    { ...mine, model_name: "m-b", created_at: lastHour - 3600, count: 2, quota: 500_000, token_used: 200 },
    { ...mine, model_name: "m-a", created_at: lastHour - 3 * 86_400, count: 5, quota: 2_500_000, token_used: 500 },
    { user_id: 1, username: "root", model_name: "m-c", created_at: lastHour, count: 7, quota: 250_000, token_used: 70 },
  ];
  const db = new Database(SQLITE_PATH);
  db.run("PRAGMA busy_timeout = 5000");
  for (const row of rows) {
    db.prepare(
      "INSERT INTO quota_data (user_id, username, model_name, created_at, count, quota, token_used) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(row.user_id, row.username, row.model_name, row.created_at, row.count, row.quota, row.token_used);
  }
  db.close();
}, 30_000);
afterAll(async () => {
  await session?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function dashboard(as: "user" | "root" = "user", language: "en" | "zh" = "en", dark = false): Promise<Page> {
  const page = await session.page({ language });
  if (dark) await page.addInitScript(() => localStorage.setItem("theme", '"dark"'));
  await signIn(page, as === "user" ? user.username : "root", as === "user" ? "password123" : ROOT_PASSWORD);
  await page.goto("/detail");
  await page.getByTestId("consumption-canvas").waitFor();
  return page;
}

const total = (page: Page, id: string) => page.getByTestId(`total-${id}`).locator(".stat-value").textContent();
/** A chart has been drawn when its canvas holds pixels that are not all transparent. */
const drawn = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((c) => {
    const canvas = c as HTMLCanvasElement;
    const pixels = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
    return canvas.width > 0 && pixels.some((value) => value !== 0);
  });

describe("dashboard", () => {
  test("a user sees their own consumption of the last day by the hour: totals and the drawn charts", async () => {
    const page = await dashboard();
    await page.getByTestId("total-quota").filter({ hasText: "$3.00" }).waitFor();
    expect(await total(page, "count")).toBe("5");
    expect(await total(page, "tokens")).toBe("500");
    expect(await page.inputValue("select[name=granularity]")).toBe("hour");
    for (const chart of ["consumption-canvas", "calls-canvas", "models-canvas"])
      expect(await drawn(page, chart)).toBe(true);
    expect(await page.getByTestId("chart-users").count()).toBe(0);
    expect(await page.locator("input[name=username]").count()).toBe(0);
  });

  test("the site's default granularity (day) looks back a week; the granularity can change without a new call", async () => {
    await session.root.put("/api/option/", { key: "DataExportDefaultTime", value: "day" });
    const page = await dashboard();
    await page.getByTestId("total-quota").filter({ hasText: "$8.00" }).waitFor();
    expect(await page.inputValue("select[name=granularity]")).toBe("day");
    expect(await total(page, "count")).toBe("10");
    await page.selectOption("select[name=granularity]", "week");
    expect(await drawn(page, "consumption-canvas")).toBe(true);
    await session.root.put("/api/option/", { key: "DataExportDefaultTime", value: "hour" });
  });

  test("a range over a month is refused for one's own data", async () => {
    const page = await dashboard();
    await page.fill("[data-testid=detail-filters] input[name=start]", "2020-01-01T00:00");
    await page.click("[data-testid=detail-filters] button[type=submit]");
    expect(await toastText(page, "error")).toBe("the time range cannot exceed 1 month (2592000 seconds)");
  });

  test("an admin sees everyone's consumption, the user overview, and filters by username", async () => {
    const page = await dashboard("root");
    await page.getByTestId("total-quota").filter({ hasText: "$3.50" }).waitFor();
    expect(await total(page, "count")).toBe("12");
    expect(await drawn(page, "users-canvas")).toBe(true);
    await page.fill("[data-testid=detail-filters] input[name=username]", user.username);
    await page.click("[data-testid=detail-filters] button[type=submit]");
    await page.getByTestId("total-quota").filter({ hasText: "$3.00" }).waitFor();
  });

  test("with data export disabled the screen says so and the menu leaves it out", async () => {
    await session.root.put("/api/option/", { key: "DataExportEnabled", value: "false" });
    const page = await session.page({ language: "en" });
    await signIn(page, user.username, "password123");
    await page.goto("/detail");
    await page.getByTestId("feature-off").waitFor();
    expect(await page.locator("[data-menu=detail]").count()).toBe(0);
    await session.root.put("/api/option/", { key: "DataExportEnabled", value: "true" });
  });

  test("screenshots in both languages, light and dark", async () => {
    for (const language of ["zh", "en"] as const)
      await screenshot(await dashboard("root", language), "detail", language);
    const dark = await dashboard("root", "zh", true);
    expect(await drawn(dark, "models-canvas")).toBe(true);
    await screenshot(dark, "detail-dark", "zh");
  }, 60_000);
});
