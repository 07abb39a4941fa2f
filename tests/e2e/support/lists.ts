import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { registeredUser, screenshot, signIn, type ConsoleSession } from "./console";

/** Opens `path`, fills the search form (data-testid `form`) with `values`, submits it and waits for the search route's answer. */
export async function searchList(
  page: Page,
  path: string,
  form: string,
  values: Record<string, string>,
): Promise<void> {
  await page.goto(path);
  for (const [name, value] of Object.entries(values))
    await page.fill(`[data-testid=${form}] input[name=${name}]`, value);
  const searched = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/search"));
  await page.click(`[data-testid=${form}] button[type=submit]`);
  await searched;
}

/** A freshly registered ordinary user sees no menu entry `menu` and is refused `path`. */
export async function expectAdminOnly(session: ConsoleSession, path: string, menu: string): Promise<void> {
  const user = await registeredUser(session);
  const page = await session.page({ language: "en" });
  await signIn(page, user.username, "password123");
  expect(await page.locator(`[data-menu=${menu}]`).count()).toBe(0);
  await page.goto(path);
  await page.getByTestId("forbidden").waitFor();
}

/** Steps of the screenshot tests may take this long on a busy 2-core machine (full-page screenshots, CJK fonts). */
export const SLOW_MS = 60_000;

export interface ListScreen {
  /** Screenshot name: <name>.<language>.png, <name>-form…, mobile-<name>… */
  name: string;
  path: string;
  /** data-testid of the table, which must show a row. */
  table: string;
  /** data-action of the button opening the drawer, and the drawer form's data-testid. */
  add: string;
  form: string;
  /** Text the screen shows in each language. */
  text: Record<"zh" | "en", string>;
}

/** Signs root in, checks the screen's language and screenshots the list, its drawer and the 375 px phone layout (no page overflow). */
export async function screenshotList(
  session: ConsoleSession,
  language: "zh" | "en",
  screen: ListScreen,
  rootPassword: string,
): Promise<void> {
  const open = async (width: number, height: number) => {
    const page = await session.page({ language, width, height });
    page.setDefaultTimeout(SLOW_MS);
    await signIn(page, "root", rootPassword);
    await page.goto(screen.path);
    await page.getByTestId(screen.table).locator("tbody tr").first().waitFor();
    return page;
  };
  const page = await open(1280, 800);
  expect(await page.locator("body").textContent()).toContain(screen.text[language]);
  await screenshot(page, screen.name, language);
  await page.click(`[data-action=${screen.add}]`);
  await page.getByTestId(screen.form).waitFor();
  await screenshot(page, `${screen.name}-form`, language);
  const phone = await open(375, 740);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await screenshot(phone, `mobile-${screen.name}`, language);
}
