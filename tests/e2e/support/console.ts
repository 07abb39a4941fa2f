import { afterAll, beforeAll, expect } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startGateway, type Gateway } from "../../../bench/support";
import { ApiClient } from "../../support/client";
import { launchChromium } from "./chromium";

export const ROOT_PASSWORD = "root-pass-1234";
export const SCREENSHOTS = join(import.meta.dir, "..", "screenshots");

export interface ConsoleSession {
  url: string;
  browser: Browser;
  /** A fresh browser context (its own cookies and localStorage); page errors fail the test at `stop`. */
  page(options?: { width?: number; height?: number; language?: "zh" | "en" }): Promise<Page>;
  /** An API client signed in as root, for arranging data. */
  root: ApiClient;
  api(): ApiClient;
  stop(): Promise<void>;
}

/**
 * The real gateway (`bun src/main.ts serve` on a temp SQLite) with the built console, and headless Chromium.
 * `env` adds configuration; by default INITIAL_ROOT_PASSWORD creates root.
 */
export async function startConsole(
  env: Record<string, string> = { INITIAL_ROOT_PASSWORD: ROOT_PASSWORD },
): Promise<ConsoleSession> {
  const gateway: Gateway = await startGateway({ env: { CRITICAL_RATE_LIMIT: "100000", ...env } });
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  const root = new ApiClient(gateway.url);
  if (env.INITIAL_ROOT_PASSWORD) await root.login("root", env.INITIAL_ROOT_PASSWORD);
  return {
    url: gateway.url,
    browser,
    root,
    api: () => new ApiClient(gateway.url),
    async page({ width = 1280, height = 800, language } = {}) {
      const context = await browser.newContext({ viewport: { width, height }, baseURL: gateway.url });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: gateway.url });
      if (language)
        await context.addInitScript(`localStorage.setItem("language", ${JSON.stringify(JSON.stringify(language))})`);
      contexts.push(context);
      const page = await context.newPage();
      page.on("pageerror", (error) => errors.push(error.message));
      return page;
    },
    async stop() {
      for (const context of contexts) await context.close();
      await browser.close();
      await gateway.stop();
      expect(errors).toEqual([]);
    },
  };
}

/** Fills and sends the sign-in form of the current page. */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.fill("input[name=username]", username);
  await page.fill("input[name=password]", password);
  await page.click("[data-testid=login-form] button[type=submit]");
}

/** Signs in through the form and waits for the landing screen. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/login");
  await submitLogin(page, username, password);
  await page.waitForURL("**/token");
}

/** What a test file shares: the session, and an English page signed in as root when asked for. */
export interface SharedConsole {
  session: ConsoleSession;
  page: Page;
}

/** Starts the console before the file's tests (with a root page if `rootPage`) and stops it after them. */
export function useConsole(options: { rootPage?: boolean } = {}): SharedConsole {
  const shared = {} as SharedConsole;
  beforeAll(async () => {
    shared.session = await startConsole();
    if (!options.rootPage) return;
    shared.page = await shared.session.page({ language: "en" });
    await signIn(shared.page, "root", ROOT_PASSWORD);
  }, 30_000);
  afterAll(() => shared.session?.stop());
  return shared;
}

/** The text of the newest toast of a kind, once one shows; the toast is then dismissed, so the next call sees a new one. */
export async function toastText(page: Page, kind: "success" | "error" | "info" | "warning"): Promise<string> {
  const toast = page.locator(`[role=alert][data-kind=${kind}]`).last();
  await toast.waitFor();
  const text = (await toast.textContent()) ?? "";
  await toast
    .getByTestId("toast-dismiss")
    .click({ timeout: 1000 })
    .catch(() => undefined);
  return text;
}

/** Saves a screenshot as screenshots/<name>.<language>.png. */
export async function screenshot(page: Page, name: string, language: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.${language}.png`), fullPage: true });
}

let counter = 0;
export const uniqueName = (prefix = "e") =>
  `${prefix}${Date.now().toString(36).slice(-5)}${(++counter).toString(36)}`.slice(0, 12);

/** Registers a user through the API and answers a client signed in as them. */
export async function registeredUser(session: ConsoleSession, password = "password123"): Promise<ApiClient> {
  const client = session.api();
  const username = uniqueName();
  const reply = await client.post("/api/user/register", { username, password, password2: password });
  expect(reply.body.success).toBe(true);
  await client.login(username, password);
  return client;
}
