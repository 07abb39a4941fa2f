import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { ApiClient } from "../support/client";
import { DEFAULT_CONTENT, startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { registeredUser, screenshot, signIn, useConsole } from "./support/console";

const ui = useConsole();
/** The fake upstream waits a second, then sends a piece every 300 ms: every state of a reply can be seen. */
const SLOW = "fake-slow-1000ms-drip-300ms";
const MODELS = ["gpt-4o-mini", SLOW, "fake-error-500", "fake-break-2"];
let upstream: FakeUpstream;
let user: ApiClient;

beforeAll(async () => {
  upstream = startFakeUpstream();
  const root = ui.session.root;
  await root.post("/api/channel/", {
    type: 1,
    name: "fake",
    key: "sk-fake",
    base_url: upstream.url,
    models: MODELS.join(","),
    group: "default",
  });
  await root.put("/api/option/", {
    key: "ModelRatio",
    value: JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, 1]))),
  });
  await root.put("/api/option/", { key: "QuotaForNewUser", value: "5000000" });
  user = await registeredUser(ui.session);
});
afterAll(() => upstream?.stop());

async function playground(language: "en" | "zh" = "en", width?: number): Promise<Page> {
  const page = await ui.session.page({ language, width });
  await signIn(page, user.username, "password123");
  await page.goto("/playground");
  await page.waitForFunction(
    () => (document.querySelector("select[name=model]") as HTMLSelectElement | null)?.value === "gpt-4o-mini",
  );
  return page;
}

const replies = (page: Page) => page.locator("[data-testid=message][data-role=assistant]");

async function ask(page: Page, question: string) {
  await page.fill("textarea[name=question]", question);
  await page.press("textarea[name=question]", "Enter");
}

describe("playground", () => {
  test("defaults: model gpt-4o-mini, the user's group, temperature 0.7, no max tokens; the reply streams to complete", async () => {
    const page = await playground();
    expect(await page.inputValue("select[name=group]")).toBe("default");
    expect(await page.inputValue("input[name=max_tokens]")).toBe("0");
    const sent = page.waitForRequest((r) => r.url().endsWith("/pg/chat/completions"));
    await ask(page, "hi");
    expect((await sent).postDataJSON()).toEqual({
      model: "gpt-4o-mini",
      group: "default",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      temperature: 0.7,
    });
    await replies(page).and(page.locator("[data-status=complete]")).waitFor();
    expect(await replies(page).locator(".chat-bubble").textContent()).toBe(DEFAULT_CONTENT);
    expect(await page.inputValue("textarea[name=question]")).toBe("");
  });

  test("the system prompt, temperature and max tokens are sent; the conversation so far goes along", async () => {
    const page = await playground();
    await page.fill("textarea[name=system]", "Be brief.");
    await page.locator("input[name=temperature]").fill("0.3");
    await page.fill("input[name=max_tokens]", "2");
    await ask(page, "first");
    await replies(page).and(page.locator("[data-status=complete]")).waitFor();
    expect(await replies(page).locator(".chat-bubble").textContent()).toBe("Hello from");
    const sent = page.waitForRequest((r) => r.url().endsWith("/pg/chat/completions"));
    await ask(page, "second");
    expect((await sent).postDataJSON()).toMatchObject({
      temperature: 0.3,
      max_tokens: 2,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "first" },
        { role: "assistant", content: "Hello from" },
        { role: "user", content: "second" },
      ],
    });
    await replies(page).nth(1).and(page.locator("[data-status=complete]")).waitFor();
  });

  test("a reply is loading until its first piece, incomplete while streaming, complete at the end-of-stream marker", async () => {
    const page = await playground();
    await page.selectOption("select[name=model]", SLOW);
    await ask(page, "slowly");
    await replies(page).and(page.locator("[data-status=loading]")).waitFor();
    await replies(page).and(page.locator("[data-status=incomplete]")).waitFor();
    expect(await page.getByTestId("stop").isVisible()).toBe(true);
    await replies(page).and(page.locator("[data-status=complete]")).waitFor({ timeout: 10_000 });
    expect(await replies(page).locator(".chat-bubble").textContent()).toBe(DEFAULT_CONTENT);
  }, 30_000);

  test("Stop ends a streaming reply where it was", async () => {
    const page = await playground();
    await page.selectOption("select[name=model]", SLOW);
    await ask(page, "stop me");
    await replies(page).and(page.locator("[data-status=incomplete]")).waitFor();
    await page.click("[data-testid=stop]");
    await replies(page).and(page.locator("[data-status=complete]")).waitFor();
    expect(DEFAULT_CONTENT.startsWith((await replies(page).locator(".chat-bubble").textContent())!)).toBe(true);
    expect(await page.getByTestId("send").isVisible()).toBe(true);
  }, 30_000);

  test("an upstream error and a broken stream mark the reply as an error", async () => {
    const page = await playground();
    await page.selectOption("select[name=model]", "fake-error-500");
    await ask(page, "fail");
    await replies(page).and(page.locator("[data-status=error]")).waitFor();
    expect(await page.getByTestId("message-error").textContent()).toMatch(/^Error: .+/);
    await page.selectOption("select[name=model]", "fake-break-2");
    await ask(page, "break");
    await replies(page).nth(1).and(page.locator("[data-status=error]")).waitFor();
    await page.click("[data-testid=clear]");
    expect(await page.getByTestId("message").count()).toBe(0);
  });

  test("screenshots in both languages and the phone layout", async () => {
    for (const language of ["zh", "en"] as const) {
      const page = await playground(language);
      await page.fill("textarea[name=system]", "You are a helpful assistant.");
      await ask(page, "hi");
      await replies(page).and(page.locator("[data-status=complete]")).waitFor();
      await page.selectOption("select[name=model]", "fake-error-500");
      await ask(page, "fail");
      await replies(page).nth(1).and(page.locator("[data-status=error]")).waitFor();
      await screenshot(page, "playground", language);
    }
    const phone = await playground("zh", 375);
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
    await screenshot(phone, "playground-mobile", "zh");
  }, 60_000);
});
