import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { ApiClient } from "../support/client";
import { registeredUser, screenshot, signIn, toastText, useConsole } from "./support/console";

const ui = useConsole();
const ADDRESS = "https://gw.example";
const NEXT_CHAT = 'https://chat.example/#/?settings={"key":"{key}","url":"{address}"}';
const LOBE = "https://lobe.example/?key={key}&endpoint={address}";
let user: ApiClient;
let key: string;

const setOption = (key: string, value: unknown) =>
  ui.session.root.put("/api/option/", { key, value: typeof value === "string" ? value : JSON.stringify(value) });

beforeAll(async () => {
  await setOption("ServerAddress", ADDRESS);
  user = await registeredUser(ui.session);
  await user
    .post("/api/token/", { name: "disabled" })
    .then(async (r) => user.put("/api/token/?status_only=true", { id: r.body.data.ids[0], status: 2 }));
  key = (await user.post("/api/token/", { name: "chat" })).body.data.keys[0];
});

/**
 * A signed-in page of the user whose chat clients answer with a stub page instead of the network. The
 * language is stored after signing in rather than by an init script, which would also run in the
 * cross-site chat frame, where storage is off limits.
 */
async function chatPage(path: string, language: "en" | "zh" = "en", who: ApiClient = user): Promise<Page> {
  const page = await ui.session.page();
  await page.route(/^https:\/\/(chat|lobe|next)\.example\//, (route) =>
    route.fulfill({ contentType: "text/html", body: "<h1>chat client</h1>" }),
  );
  await signIn(page, who.username, "password123");
  await page.evaluate((chosen) => localStorage.setItem("language", JSON.stringify(chosen)), language);
  await page.goto(path);
  return page;
}

const frameSrc = async (page: Page) => {
  await page.getByTestId("chat-frame").waitFor();
  return page.getByTestId("chat-frame").getAttribute("src");
};

describe("chat links", () => {
  test("/chat embeds the first chat client with the first enabled token's key and the server address", async () => {
    await setOption("Chats", [{ NextChat: NEXT_CHAT }, { Lobe: LOBE }]);
    const page = await chatPage("/chat");
    expect(await frameSrc(page)).toBe(
      `https://chat.example/#/?settings={"key":"${key}","url":"${encodeURIComponent(ADDRESS)}"}`,
    );
    await page.goto("/chat/1");
    expect(await frameSrc(page)).toBe(`https://lobe.example/?key=${key}&endpoint=${encodeURIComponent(ADDRESS)}`);
    await page.goto("/chat/7");
    expect(await page.getByTestId("chat-problem").textContent()).toBe(
      "Chat link configuration error, contact the administrator",
    );
  });

  test("without chat clients: the ChatLink option is a ChatGPT Next Web address; with neither, the administrator is asked for", async () => {
    await setOption("Chats", []);
    await setOption("ChatLink", "https://next.example");
    const page = await chatPage("/chat");
    expect(await frameSrc(page)).toBe(
      `https://next.example/#/?settings={"key":"${key}","url":"${encodeURIComponent(ADDRESS)}"}`,
    );
    await setOption("ChatLink", "");
    await page.reload();
    expect(await page.getByTestId("chat-problem").textContent()).toBe(
      "Contact the administrator to configure chat links",
    );
  });

  test("/chat2link goes straight to the ChatLink client; without a link it says none is set", async () => {
    const unset = await chatPage("/chat2link");
    expect(await unset.getByTestId("chat-problem").textContent()).toBe("The chat or query link is not set");
    await setOption("ChatLink", "https://next.example/");
    const page = await chatPage("/chat2link");
    await page.waitForURL(/^https:\/\/next\.example\//);
    expect(decodeURIComponent(page.url())).toBe(`https://next.example/#/?settings={"key":"${key}","url":"${ADDRESS}"}`);
    await setOption("ChatLink", "");
  });

  test("with no enabled token: the spec's error, then /token after 1.5 s", async () => {
    await setOption("Chats", [{ NextChat: NEXT_CHAT }]);
    const tokenless = await registeredUser(ui.session);
    const page = await chatPage("/chat", "en", tokenless);
    expect(await toastText(page, "error")).toBe("No enabled token, check that a token is enabled");
    expect(new URL(page.url()).pathname).toBe("/chat");
    await page.waitForURL("**/token", { timeout: 5000 });
  });

  test("a visitor is sent to sign in", async () => {
    const page = await ui.session.page({ language: "en" });
    await page.goto("/chat");
    await page.waitForURL("**/login");
  });

  test("screenshots in both languages", async () => {
    await setOption("Chats", [{ NextChat: NEXT_CHAT }]);
    for (const language of ["zh", "en"] as const) {
      const page = await chatPage("/chat", language);
      await page.frameLocator("[data-testid=chat-frame]").getByText("chat client").waitFor();
      await screenshot(page, "chat", language);
    }
  }, 60_000);
});
