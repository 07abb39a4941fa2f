import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { ApiClient } from "../support/client";
import { startFakeMidjourney, type FakeMidjourney } from "../support/fake-midjourney";
import { startFakeSuno, type FakeSuno } from "../support/fake-suno";
import { registeredUser, ROOT_PASSWORD, signIn, startConsole, type ConsoleSession } from "./support/console";

const MJ_SECRET = "mj-e2e-secret";
const SUNO_KEY = "suno-e2e-key";

let session: ConsoleSession;
let mj: FakeMidjourney;
let suno: FakeSuno;
let user: ApiClient;
let key: string;
let mjChannel: number;
const ids = { drawn: "", failed: "", song: "" };

const relay = async (method: "GET" | "POST", path: string, body?: unknown) => {
  const response = await fetch(`${session.url}${path}`, {
    method,
    headers: { "mj-api-secret": key, authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json() as Promise<any>;
};

/** Polls `check` until it holds: the gateway's own poller runs every second (TASK_POLL_SECONDS=1). */
async function until(check: () => Promise<boolean>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await Bun.sleep(200);
  }
}

async function addChannel(fields: Record<string, unknown>): Promise<number> {
  const reply = await session.root.post("/api/channel/", { group: "default", ...fields });
  expect(reply.body.success).toBe(true);
  const list = await session.root.get(`/api/channel/?p=1&page_size=100`);
  return list.body.data.items.find((c: any) => c.name === fields.name).id;
}

beforeAll(async () => {
  session = await startConsole({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, TASK_POLL_SECONDS: "1" });
  mj = startFakeMidjourney(MJ_SECRET);
  suno = startFakeSuno(SUNO_KEY);
  mjChannel = await addChannel({ type: 2, name: "mj-e2e", key: MJ_SECRET, base_url: mj.url, models: "mj_imagine" });
  await addChannel({ type: 36, name: "suno-e2e", key: SUNO_KEY, base_url: suno.url, models: "suno_music" });
  // Upstream images are plain http here, which the console's CSP (img-src 'self' data: https:) does not load:
  // forwarded through this server they are its own.
  await session.root.put("/api/option/", { key: "ServerAddress", value: session.url });
  await session.root.put("/api/option/", { key: "MjForwardUrlEnabled", value: "true" });
  user = await registeredUser(session);
  await session.root.put("/api/user/", { id: user.userId, quota: 5_000_000 });
  const token = await user.post("/api/token/", { name: "tasks", remain_quota: 1_000_000 });
  key = token.body.data.keys[0];
  // The channels reach the running gateway's routing table within a second.
  await until(
    async () => (ids.drawn = (await relay("POST", "/mj/submit/imagine", { prompt: "a live fox" })).result ?? ""),
    "the first submission",
  );
  ids.failed = (await relay("POST", "/mj/submit/imagine", { prompt: "fail live" })).result;
  ids.song = (await relay("POST", "/suno/submit/music", { prompt: "a live song" })).data;
  await until(async () => (await relay("GET", `/mj/task/${ids.drawn}/fetch`)).status === "SUCCESS", "the drawing");
  await until(async () => (await relay("GET", `/mj/task/${ids.failed}/fetch`)).status === "FAILURE", "the failure");
  await until(async () => (await relay("GET", `/suno/fetch/${ids.song}`)).data.status === "SUCCESS", "the song");
}, 60_000);
afterAll(async () => {
  await session?.stop();
  await mj?.stop();
  await suno?.stop();
});

const rows = (page: Page, table = "records-table") => page.locator(`[data-testid=${table}] tr[data-row]`);

async function open(path: string, as: "user" | "root", table = "records-table"): Promise<Page> {
  const page = await session.page({ language: "en" });
  await signIn(page, as === "user" ? user.username : "root", as === "user" ? "password123" : ROOT_PASSWORD);
  await page.goto(path);
  await rows(page, table).first().waitFor();
  return page;
}

describe("the record screens fill from the relays", () => {
  test("/midjourney: the user's drawings as the poller left them, the image previewed through this server, the failure's reason", async () => {
    const page = await open("/midjourney", "user");
    expect(await rows(page).count()).toBe(2);
    const drawn = rows(page).filter({ hasText: ids.drawn });
    expect(await drawn.textContent()).toMatch(/Imagine.*Submitted.*Success.*100%/);
    expect(await drawn.getByTestId("status").getAttribute("class")).toContain("badge-success");
    const preview = drawn.getByTestId("image-preview");
    expect(await preview.getAttribute("src")).toBe(`${session.url}/mj/image/${ids.drawn}`);
    await page.waitForFunction((el) => (el as HTMLImageElement).naturalWidth === 1, await preview.elementHandle());
    const failed = rows(page).filter({ hasText: ids.failed });
    expect(await failed.textContent()).toContain("Banned prompt detected");
    expect(await failed.getByTestId("status").getAttribute("class")).toContain("badge-error");
    expect(await page.locator("[data-testid=records-table] thead").textContent()).not.toContain("Channel");
  });

  test("/midjourney as admin: everyone's drawings with their channel, filtered by channel id", async () => {
    const page = await open("/midjourney", "root");
    expect(await rows(page).filter({ hasText: ids.drawn }).textContent()).toContain(`#${mjChannel}`);
    await page.fill("input[name=channel_id]", String(mjChannel + 1000));
    await page.click("[data-testid=record-filters] button[type=submit]");
    await page.waitForFunction(
      () => document.querySelectorAll("[data-testid=records-table] tr[data-row]").length === 0,
    );
  });

  test("/task: the song, Suno, done", async () => {
    const page = await open("/task", "user");
    expect(await rows(page).filter({ hasText: ids.song }).textContent()).toMatch(/Generate music.*Suno.*Success/);
  });

  test("the log screen counts the tasks' spending: the charges and the failed drawing's refund", async () => {
    const page = await open("/log", "user", "log-table");
    const text = (await rows(page, "log-table").allTextContents()).join("\n");
    expect(text).toContain("mj_imagine");
    expect(text).toContain("suno_music");
    const refunds = (await user.get("/api/log/self?type=6")).body.data.items;
    expect(refunds.map((l: any) => l.quota)).toEqual([50_000]);
    const spent = (await user.get("/api/log/self/stat?type=2")).body.data.quota;
    expect(spent).toBe(3 * 50_000);
  });
});
