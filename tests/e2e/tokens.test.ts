import { beforeAll, describe, expect, test } from "bun:test";
import { CANNOT_ENABLE_EXPIRED } from "../../src/service/tokens/rules";
import { WHOLE_KEY_NEEDED } from "../../src/service/tokens/list";
import { ROOT_PASSWORD, screenshot, toastText, uniqueName, useConsole } from "./support/console";
import { screenshotList, searchList, SLOW_MS } from "./support/lists";

const ui = useConsole({ rootPage: true });

beforeAll(async () => {
  const channel = {
    type: 1,
    name: "models",
    key: "sk-x",
    base_url: "http://127.0.0.1:9",
    models: "gpt-4o-mini",
    group: "default",
  };
  expect((await ui.session.root.post("/api/channel/", channel)).body.success).toBe(true);
});

/** A token of root's made through the API; answers its id and whole key. */
async function token(fields: Record<string, unknown> = {}): Promise<{ id: number; key: string; name: string }> {
  const name = uniqueName("tk");
  const reply = await ui.session.root.post("/api/token/", { name, ...fields });
  expect(reply.body.success).toBe(true);
  return { id: reply.body.data.ids[0], key: reply.body.data.keys[0], name };
}

const stored = async (name: string) => (await ui.session.root.get(`/api/token/search?keyword=${name}`)).body.data;
const row = (id: number) => ui.page.locator(`[data-testid=tokens-table] tr[data-row="${id}"]`);
const form = () => ui.page.getByTestId("token-form");
const submitForm = () => form().locator("button[type=submit]").click();
const clipboard = () => ui.page.evaluate(() => navigator.clipboard.readText());

async function search(fields: { keyword?: string; token?: string }, id?: number): Promise<void> {
  await searchList(ui.page, "/token", "token-search", { keyword: fields.keyword ?? "", token: fields.token ?? "" });
  if (id !== undefined) await row(id).waitFor();
}

describe("token drawer", () => {
  test("add: the name is required, the expiry must be a date; presets fill expiry and quota; model limits, IPs and group are sent", async () => {
    await ui.page.goto("/token");
    await ui.page.click("[data-action=add-token]");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("Please enter a name");
    const name = uniqueName("add");
    await form().locator("input[name=name]").fill(name);
    await form().locator("input[name=expired_time]").fill("tomorrow");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("Invalid expiry time format!");
    await form().locator("[data-testid=expiry-presets] [data-preset=hour]").click();
    expect(await form().locator("input[name=expired_time]").inputValue()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await form().locator("input[name=remain_quota]").inputValue()).toBe("500000");
    await form().locator("[data-testid=quota-presets] [data-preset='10']").click();
    expect(await form().locator("input[name=remain_quota]").inputValue()).toBe("5000000");
    await form().getByText("Limit the models this token may use").click();
    await form().locator("input[name=model_limits][value=gpt-4o-mini]").check();
    await form().locator("textarea[name=allow_ips]").fill("10.0.0.1\n192.168.0.0/16");
    await form().locator("select[name=group]").selectOption("default");
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Token created");
    const [created] = (await stored(name)).items;
    expect(created).toMatchObject({
      remain_quota: 5000000,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: "gpt-4o-mini",
      allow_ips: "10.0.0.1\n192.168.0.0/16",
      group: "default",
    });
    expect(Math.abs(created.expired_time - (Date.now() / 1000 + 3600))).toBeLessThan(120);
    await row(created.id).locator("[data-status='1']", { hasText: "Enabled (model limits)" }).waitFor();
  });

  test("a batch of 10 with unlimited quota: the others get the name plus a random 6-character suffix", async () => {
    const name = uniqueName("bat");
    await ui.page.goto("/token");
    await ui.page.click("[data-action=add-token]");
    await form().locator("input[name=name]").fill(name);
    await form().getByText("Unlimited quota").click();
    expect(await form().locator("input[name=remain_quota]").count()).toBe(0);
    await form().locator("[data-testid=count-presets] [data-preset='10']").click();
    await form().locator("input[name=count]").fill("0");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("The count must be a positive integer");
    await form().locator("[data-testid=count-presets] [data-preset='10']").click();
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Token created");
    const { items, total } = await stored(name);
    expect(total).toBe(10);
    expect(items.every((t: { unlimited_quota: boolean }) => t.unlimited_quota)).toBe(true);
    expect(items.map((t: { name: string }) => t.name.replace(/-[0-9A-Za-z]{6}$/, "-*")).sort()).toEqual(
      [name, ...Array(9).fill(`${name}-*`)].sort(),
    );
  });

  test("edit changes the fields; the expiry shows in yyyy-MM-dd HH:mm:ss", async () => {
    const expiry = Math.floor(Date.now() / 1000) + 86400;
    const made = await token({ expired_time: expiry });
    await search({ keyword: made.name }, made.id);
    await row(made.id).locator("[data-action=edit]").click();
    expect(await form().locator("input[name=expired_time]").inputValue()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await form().locator("[data-testid=expiry-presets] [data-preset=never]").click();
    await form().locator("input[name=name]").fill(`${made.name}e`);
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Token updated");
    expect((await stored(`${made.name}e`)).items[0]).toMatchObject({ id: made.id, expired_time: -1 });
  });
});

describe("token rate limits", () => {
  test("requests and tokens per minute: whole numbers ≥ 0 only, saved with the token and shown again on edit", async () => {
    const made = await token();
    await search({ keyword: made.name }, made.id);
    await row(made.id).locator("[data-action=edit]").click();
    expect(await form().locator("input[name=rpm_limit]").inputValue()).toBe("0");
    await form().locator("input[name=rpm_limit]").fill("-3");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("Limits per minute must be whole numbers (0 for none)");
    await form().locator("input[name=rpm_limit]").fill("30");
    await form().locator("input[name=tpm_limit]").fill("90000");
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Token updated");
    expect((await stored(made.name)).items[0]).toMatchObject({ id: made.id, rpm_limit: 30, tpm_limit: 90000 });
    await row(made.id).locator("[data-action=edit]").click();
    expect(await form().locator("input[name=tpm_limit]").inputValue()).toBe("90000");
  });
});

describe("token list", () => {
  test("search by name and by whole key; part of a key is refused", async () => {
    const a = await token();
    const b = await token();
    await search({ keyword: a.name }, a.id);
    expect(await ui.page.locator("[data-testid=tokens-table] tbody tr").count()).toBe(1);
    expect(await row(a.id).getByTestId("masked-key").textContent()).toMatch(/^sk-\w{4}\*+\w{4}$/);
    await search({ token: b.key }, b.id);
    expect(await ui.page.locator("[data-testid=tokens-table] tbody tr").count()).toBe(1);
    await search({ token: b.key.slice(0, 20) });
    expect(await toastText(ui.page, "error")).toBe(WHOLE_KEY_NEEDED);
  });

  test("view key reveals the whole key, copy puts it on the clipboard; copy selected needs a selection", async () => {
    const prefix = uniqueName("cp");
    const a = await token({ name: `${prefix}a` });
    const b = await token({ name: `${prefix}b` });
    await search({ keyword: prefix }, a.id);
    await row(a.id).locator("[data-action=view-key]").click();
    expect(await ui.page.getByTestId("key-list").inputValue()).toBe(a.key);
    await ui.page.getByRole("button", { name: "Close", exact: true }).click();
    await row(a.id).locator("[data-action=copy-key]").click();
    expect(await toastText(ui.page, "success")).toBe("Key copied to the clipboard");
    expect(await clipboard()).toBe(a.key);
    await ui.page.click("[data-action=copy-selected]");
    expect(await toastText(ui.page, "error")).toBe("Please select at least one token!");
    await ui.page.click("[data-testid=tokens-table] [data-testid=select-all]");
    await ui.page.click("[data-action=copy-selected]");
    expect(await toastText(ui.page, "success")).toBe("Copied 2 keys to the clipboard");
    expect((await clipboard()).split("\n").sort()).toEqual([a.key, b.key].sort());
  });

  test("chat links: none configured says so; a configured client opens with the key and the encoded server address", async () => {
    const made = await token();
    await search({ keyword: made.name }, made.id);
    await row(made.id).getByTestId("chat-menu").click();
    await ui.page
      .locator("[data-testid=chat-menu-items]:popover-open", {
        hasText: "Contact the administrator to configure chat links",
      })
      .waitFor();
    await ui.page.keyboard.press("Escape");
    const chats = [{ NextChat: 'https://chat.example/#/?settings={"key":"{key}","url":"{address}"}' }];
    await ui.session.root.put("/api/option/", { key: "Chats", value: JSON.stringify(chats) });
    await search({ keyword: made.name }, made.id);
    await ui.page.context().route("https://chat.example/**", (route) => route.fulfill({ body: "chat client" }));
    await row(made.id).getByTestId("chat-menu").click();
    await screenshot(ui.page, "token-chat-menu", "en");
    const opened = ui.page.context().waitForEvent("page");
    await ui.page.locator("[data-testid=chat-menu-items]:popover-open").getByText("NextChat").click();
    const popup = await opened;
    const address = encodeURIComponent(ui.session.url);
    expect(decodeURI(popup.url())).toBe(`https://chat.example/#/?settings={"key":"${made.key}","url":"${address}"}`);
    await popup.close();
  });

  test("disable and enable; enabling an expired token is refused; delete asks first", async () => {
    const expiry = Math.floor(Date.now() / 1000) + 8;
    const made = await token({ expired_time: expiry });
    await search({ keyword: made.name }, made.id);
    await row(made.id).locator("[data-action=disable]").click();
    expect(await toastText(ui.page, "success")).toBe("Token disabled");
    await row(made.id).locator("[data-status='2']", { hasText: "Disabled" }).waitFor();
    await row(made.id).locator("[data-action=enable]").click();
    expect(await toastText(ui.page, "success")).toBe("Token enabled");
    await row(made.id).locator("[data-action=disable]").click();
    expect(await toastText(ui.page, "success")).toBe("Token disabled");
    await Bun.sleep(Math.max(0, (expiry + 1) * 1000 - Date.now()));
    await row(made.id).locator("[data-action=enable]").click();
    expect(await toastText(ui.page, "error")).toBe(CANNOT_ENABLE_EXPIRED);
    await ui.page.reload();
    await row(made.id).locator("[data-status='2']").waitFor();
    await row(made.id).locator("[data-action=delete]").click();
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "success")).toBe("Token deleted");
    expect((await stored(made.name)).total).toBe(0);
  });
});

describe("token screens in both languages", () => {
  const screen = {
    name: "tokens",
    path: "/token",
    table: "tokens-table",
    add: "add-token",
    form: "token-form",
    text: { zh: "添加令牌", en: "Add token" },
  };
  for (const language of ["zh", "en"] as const) {
    test(
      `the list, the drawer and the phone layout read in ${language}`,
      async () => {
        await token({ name: "website", unlimited_quota: true });
        await screenshotList(ui.session, language, screen, ROOT_PASSWORD);
      },
      3 * SLOW_MS,
    );
  }
});
