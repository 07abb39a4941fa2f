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
  type ConsoleSession,
} from "./support/console";

/** The gateway's SQLite file is ours to name, so records no API creates can be written into it. */
const dir = mkdtempSync(join(tmpdir(), "tollgate-records-"));
const SQLITE_PATH = join(dir, "records.db");
const now = Math.floor(Date.now() / 1000);
const today = (() => {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
})();
let session: ConsoleSession;
let user: ApiClient;

function insert(table: "midjourneys" | "tasks", rows: Record<string, string | number>[]) {
  const db = new Database(SQLITE_PATH);
  db.run("PRAGMA busy_timeout = 5000");
  for (const row of rows) {
    const names = Object.keys(row);
    db.prepare(`INSERT INTO ${table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`).run(
      ...Object.values(row),
    );
  }
  db.close();
}

beforeAll(async () => {
  session = await startConsole({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, SQLITE_PATH });
  user = await registeredUser(session);
  const mine = { user_id: user.userId!, channel_id: 1 };
  insert("midjourneys", [
    {
      ...mine,
      mj_id: "mj-slow",
      action: "IMAGINE",
      status: "SUCCESS",
      code: 1,
      submit_time: now - 100,
      finish_time: now - 10,
      progress: "100%",
      prompt: "a cat",
      image_url: "https://img.example/cat.png",
    },
    {
      ...mine,
      mj_id: "mj-fast",
      action: "UPSCALE",
      status: "FAILURE",
      code: 22,
      submit_time: now - 40,
      finish_time: now - 20,
      fail_reason: "banned prompt",
    },
    {
      ...mine,
      mj_id: "mj-old",
      action: "BLEND",
      status: "SUCCESS",
      code: 1,
      submit_time: now - 40 * 86_400,
      finish_time: now - 40 * 86_400 + 5,
    },
    {
      user_id: 1,
      channel_id: 2,
      mj_id: "mj-root",
      action: "DESCRIBE",
      status: "IN_PROGRESS",
      code: 21,
      submit_time: now - 50,
    },
  ]);
  const task = { ...mine, created_at: now, updated_at: now };
  insert("tasks", [
    { ...task, task_id: "task-music", platform: "suno", action: "MUSIC", status: "QUEUED", submit_time: now - 5 },
    { ...task, task_id: "task-lyrics", platform: "suno", action: "LYRICS", status: "", submit_time: now - 3 },
    {
      ...task,
      task_id: "task-kling",
      platform: "kling",
      action: "MUSIC",
      status: "SUCCESS",
      submit_time: now - 2,
      finish_time: now - 1,
    },
    {
      ...task,
      task_id: "task-yesterday",
      platform: "suno",
      action: "MUSIC",
      status: "SUCCESS",
      submit_time: today - 3600,
    },
  ]);
}, 30_000);
afterAll(async () => {
  await session?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const rows = (page: Page) => page.locator("[data-testid=records-table] tr[data-row]");
const taskIds = (page: Page) => rows(page).locator("td:nth-child(4)").allTextContents();

async function open(path: string, as: "user" | "root" = "user", language: "en" | "zh" = "en"): Promise<Page> {
  const page = await session.page({ language });
  await signIn(page, as === "user" ? user.username : "root", as === "user" ? "password123" : ROOT_PASSWORD);
  await page.goto(path);
  await rows(page).first().waitFor();
  return page;
}

describe("drawing task log", () => {
  test("a user sees their own tasks of the last 30 days with the spec's labels; a task over 60 s is red", async () => {
    const page = await open("/midjourney");
    expect(await rows(page).count()).toBe(2);
    const slow = rows(page).filter({ hasText: "mj-slow" });
    expect(await slow.textContent()).toContain("Imagine");
    expect(await slow.textContent()).toContain("Success");
    expect(await slow.textContent()).toContain("Submitted");
    expect(await slow.getByTestId("duration").getAttribute("class")).toContain("badge-error");
    expect(await slow.getByRole("link", { name: "View image" }).getAttribute("href")).toBe(
      "https://img.example/cat.png",
    );
    const fast = rows(page).filter({ hasText: "mj-fast" });
    expect(await fast.textContent()).toContain("Duplicate submission");
    expect(await fast.textContent()).toContain("Failed");
    expect(await fast.getByTestId("duration").getAttribute("class")).toContain("badge-success");
    expect(await page.locator("[data-testid=records-table] thead").textContent()).not.toContain("Channel");
    expect(await page.locator("input[name=channel_id]").count()).toBe(0);
  });

  test("filters: the task id, and a time range reaching back to older tasks", async () => {
    const page = await open("/midjourney");
    await page.fill("input[name=task]", "mj-fast");
    await page.click("[data-testid=record-filters] button[type=submit]");
    await page.waitForFunction(
      () => document.querySelectorAll("[data-testid=records-table] tr[data-row]").length === 1,
    );
    await page.fill("input[name=task]", "");
    await page.fill("input[name=start]", "2000-01-01T00:00");
    await page.click("[data-testid=record-filters] button[type=submit]");
    await rows(page).filter({ hasText: "mj-old" }).waitFor();
    expect(await rows(page).count()).toBe(3);
  });

  test("an admin sees everyone's tasks with the channel and filters by channel id", async () => {
    const page = await open("/midjourney", "root");
    expect(await rows(page).count()).toBe(3);
    expect(await rows(page).filter({ hasText: "mj-root" }).textContent()).toContain("#2");
    await page.fill("input[name=channel_id]", "2");
    await page.click("[data-testid=record-filters] button[type=submit]");
    await page.waitForFunction(
      () => document.querySelectorAll("[data-testid=records-table] tr[data-row]").length === 1,
    );
    expect(await rows(page).first().textContent()).toContain("Waiting");
  });

  test("with drawing disabled the screen says so and the menu leaves it out", async () => {
    await session.root.put("/api/option/", { key: "DrawingEnabled", value: "false" });
    const page = await session.page({ language: "en" });
    await signIn(page, user.username, "password123");
    await page.goto("/midjourney");
    await page.getByTestId("feature-off").waitFor();
    expect(await page.locator("[data-menu=midjourney]").count()).toBe(0);
    await session.root.put("/api/option/", { key: "DrawingEnabled", value: "true" });
  });
});

describe("async task log", () => {
  test("shows today's tasks by default with platform, action and status labels (empty status: submitting)", async () => {
    const page = await open("/task");
    expect(await rows(page).count()).toBe(3);
    expect(await rows(page).filter({ hasText: "task-music" }).textContent()).toMatch(/Generate music.*Suno.*Queued/);
    expect(await rows(page).filter({ hasText: "task-lyrics" }).textContent()).toMatch(/Generate lyrics.*Submitting/);
    expect(await rows(page).filter({ hasText: "task-yesterday" }).count()).toBe(0);
  });

  test("the platform filter narrows the list", async () => {
    const page = await open("/task");
    await page.fill("input[name=platform]", "kling");
    await page.click("[data-testid=record-filters] button[type=submit]");
    await page.waitForFunction(
      () => document.querySelectorAll("[data-testid=records-table] tr[data-row]").length === 1,
    );
    expect(await rows(page).first().textContent()).toContain("task-kling");
  });
});

test("screenshots of both screens in both languages", async () => {
  for (const language of ["zh", "en"] as const) {
    await screenshot(await open("/midjourney", "root", language), "midjourney", language);
    await screenshot(await open("/task", "user", language), "task", language);
  }
}, 60_000);

test("the task ids are shown as stored", async () => {
  const page = await open("/task");
  expect((await taskIds(page)).sort()).toEqual(["task-kling", "task-lyrics", "task-music"]);
});
