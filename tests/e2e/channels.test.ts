import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { screenshot, signIn, toastText, uniqueName, useConsole, ROOT_PASSWORD } from "./support/console";
import { callAs } from "./support/relay-calls";
import { expectAdminOnly, screenshotList, searchList, SLOW_MS } from "./support/lists";

const ui = useConsole({ rootPage: true });
let upstream: FakeUpstream;
beforeAll(() => {
  upstream = startFakeUpstream();
});
afterAll(() => upstream.stop());

/** A channel made through the API, sending to the fake upstream; answers its id. */
async function channel(fields: Record<string, unknown> = {}): Promise<number> {
  const body = {
    type: 1,
    name: uniqueName("ch"),
    key: "sk-fake",
    base_url: upstream.url,
    models: "gpt-4o-mini,gpt-4o",
    group: "default",
    ...fields,
  };
  const reply = await ui.session.root.post("/api/channel/", body);
  expect(reply.body.success).toBe(true);
  return reply.body.data.id;
}

const stored = async (id: number) => (await ui.session.root.get(`/api/channel/${id}`)).body.data;

/** Waits (up to 10 s) until the stored channel satisfies `check`. */
async function storedUntil(id: number, check: (channel: any) => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(await stored(id)); i++) await Bun.sleep(100);
  expect(check(await stored(id))).toBe(true);
}
const row = (id: number, page: Page = ui.page) => page.locator(`[data-testid=channels-table] tr[data-row="${id}"]`);

/** Opens /channel filtered by keyword and waits for the row of `id` (when given). */
async function listed(keyword: string, id?: number): Promise<void> {
  await searchList(ui.page, "/channel", "channel-search", { keyword });
  if (id !== undefined) await row(id).waitFor();
}

const form = () => ui.page.getByTestId("channel-form");
const submitForm = () => form().locator("button[type=submit]").click();
const modelChips = () =>
  form()
    .locator("[data-testid=models] [data-model]")
    .evaluateAll((chips) => chips.map((c) => c.getAttribute("data-model")));

describe("channel drawer", () => {
  test("add: required fields are refused, models are fetched from the upstream, custom names refuse duplicates, JSON is checked", async () => {
    await ui.page.goto("/channel");
    await ui.page.click("[data-action=add-channel]");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("Please enter the channel name");
    const name = uniqueName("new");
    await form().locator("input[name=name]").fill(name);
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("Please enter the key");
    await form().locator("textarea[name=key]").fill("sk-fake-key");
    await form().locator("input[name=base_url]").fill(upstream.url);
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("Please choose at least one model");

    await form().locator("[data-action=fetch-models]").click();
    expect(await toastText(ui.page, "success")).toBe("6 models fetched from the upstream");
    expect(await modelChips()).toContain("dall-e-3");
    await form().locator("[data-action=clear-models]").click();
    expect(await modelChips()).toEqual([]);
    await form().locator("input[name=custom_models]").fill("gpt-4o-mini, my-model");
    await form().locator("[data-action=add-custom]").click();
    expect(await modelChips()).toEqual(["gpt-4o-mini", "my-model"]);
    await form().locator("input[name=custom_models]").fill("other-model, my-model");
    await form().locator("[data-action=add-custom]").click();
    expect(await toastText(ui.page, "error")).toBe("Some models already exist: my-model");
    expect(await modelChips()).toEqual(["gpt-4o-mini", "my-model"]);

    await form().locator("textarea[name=model_mapping]").fill("{not json");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("The model mapping must be valid JSON!");
    await form().locator("[data-action=template-model_mapping]").click();
    await form().locator("input[name=groups][value=vip]").check();
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Channel created");
    const found = (await ui.session.root.get(`/api/channel/search?keyword=${name}`)).body.data.items[0];
    expect(found).toMatchObject({
      name,
      models: "gpt-4o-mini,my-model",
      group: "default,vip",
      base_url: upstream.url,
      auto_ban: 1,
    });
    expect(JSON.parse(found.model_mapping)).toEqual({ "gpt-4o": "gpt-4o-2024-11-20" });
  });

  test("batch create makes one channel per key line; fill related models uses the type's list", async () => {
    const name = uniqueName("bat");
    await ui.page.goto("/channel/add");
    await form().locator("input[name=name]").fill(name);
    await form().locator("input[name=base_url]").fill(upstream.url);
    await form().getByText("Batch create: one channel per key line").click();
    await form().locator("textarea[name=key]").fill("sk-one\nsk-two\n\nsk-three");
    await form().locator("[data-action=fill-related]").click();
    await form().locator("[data-testid=models] [data-model=gpt-4o]").waitFor();
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("3 channels created");
    await ui.page.waitForURL("**/channel");
    const items = (await ui.session.root.get(`/api/channel/search?keyword=${name}`)).body.data.items;
    expect(items.map((c: { name: string }) => c.name).sort()).toEqual([`${name} #1`, `${name} #2`, `${name} #3`]);
  });

  test("fields by type: Azure asks for its API version, Spark's version defaults to v1, Cloudflare asks for the account id; only types with a provider are offered", async () => {
    await ui.page.goto("/channel/add");
    const type = form().locator("select[name=type]");
    await type.locator("option[value='3']").waitFor({ state: "attached" });
    const offered = await type
      .locator("option")
      .evaluateAll((options) => options.map((o) => Number(o.getAttribute("value"))));
    expect(offered).toEqual((await ui.session.root.get("/api/channel/types")).body.data);
    expect(offered).not.toContain(56);
    await type.selectOption("3");
    expect(await form().locator("input[name=other]").inputValue()).toBe("2025-04-01-preview");
    const otherLegend = () =>
      form()
        .locator("fieldset", { has: ui.page.locator("input[name=other]") })
        .locator("legend")
        .textContent();
    expect(await otherLegend()).toBe("API version");
    await type.selectOption("18");
    expect(await form().locator("input[name=other]").inputValue()).toBe("v1");
    expect(await otherLegend()).toBe("Spark version");
    expect(await form().locator("input[name=base_url]").getAttribute("placeholder")).toBe(
      "https://spark-api-open.xf-yun.com",
    );
    await type.selectOption("1");
    expect(await form().locator("input[name=other]").count()).toBe(0);
    expect(await form().locator("input[name=openai_organization]").count()).toBe(1);
    await type.selectOption("39");
    await form().locator("input[name=name]").fill("cf");
    await form().locator("textarea[name=key]").fill("cf-token");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("Please fill in: Account ID");
  });

  test("the Responses API mode: offered for OpenAI-family types only, saved as setting.responses_api beside the other settings", async () => {
    const id = await channel({ setting: JSON.stringify({ force_format: true }) });
    await ui.page.goto(`/channel/edit/${id}`);
    const mode = form().locator("select[name=responses_api]");
    await mode.waitFor();
    expect(await mode.inputValue()).toBe("auto");
    await mode.selectOption("translate");
    expect(JSON.parse(await form().locator("textarea[name=setting]").inputValue())).toEqual({
      force_format: true,
      responses_api: "translate",
    });
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Channel updated");
    await storedUntil(id, (c) => JSON.parse(c.setting).responses_api === "translate");
    await ui.page.goto("/channel/add");
    await form().locator("select[name=type]").selectOption("14");
    expect(await form().locator("select[name=responses_api]").count()).toBe(0);
    await form().locator("select[name=type]").selectOption("3");
    expect(await form().locator("select[name=responses_api]").count()).toBe(1);
  });

  test("/channel/edit/{id} leaves a blank key unchanged and saves the other fields", async () => {
    const id = await channel({ key: "sk-keep-me" });
    await ui.page.goto(`/channel/edit/${id}`);
    await form().locator("input[name=name]").waitFor();
    expect(await form().locator("textarea[name=key]").inputValue()).toBe("");
    await form().locator("input[name=name]").fill("renamed-channel");
    await form().locator("input[name=priority]").fill("7");
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Channel updated");
    await ui.page.waitForURL("**/channel");
    expect(await stored(id)).toMatchObject({ name: "renamed-channel", priority: 7 });
    expect((await ui.session.root.post(`/api/channel/${id}/key`)).body.data).toMatchObject({ key: "sk-keep-me" });
  });
});

describe("multi-key channels in the console", () => {
  test("create with several keys in one channel (in turn); the list counts enabled keys; the edit drawer enables and disables each key", async () => {
    const name = uniqueName("mk");
    await ui.page.goto("/channel/add");
    await form().locator("input[name=name]").fill(name);
    await form().locator("input[name=base_url]").fill(upstream.url);
    await form().locator("textarea[name=key]").fill("sk-one\nsk-two");
    await form().locator("select[name=multi_key_mode]").selectOption("polling");
    await form().locator("input[name=custom_models]").fill("gpt-4o-mini");
    await form().locator("[data-action=add-custom]").click();
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Channel created");
    await ui.page.waitForURL("**/channel");
    const found = (await ui.session.root.get(`/api/channel/search?keyword=${name}`)).body.data.items;
    expect(found).toHaveLength(1);
    const id = found[0].id;
    expect(JSON.parse(found[0].channel_info)).toMatchObject({
      is_multi_key: true,
      multi_key_size: 2,
      multi_key_mode: "polling",
    });
    await listed(name, id);
    expect(await row(id).getByTestId("key-count").textContent()).toBe("2/2 keys");

    await ui.page.goto(`/channel/edit/${id}`);
    const keys = form().getByTestId("multi-keys");
    await keys.locator("[data-key-index='0'] [data-action=disable-key]").click();
    await keys.locator("[data-key-index='0'][data-status='2']").waitFor();
    await storedUntil(id, (c) => JSON.parse(c.channel_info).multi_key_status_list["0"] === 2);
    await keys.locator("[data-key-index='0'] [data-action=enable-key]").click();
    await keys.locator("[data-key-index='0'][data-status='1']").waitFor();
    expect(await keys.textContent()).not.toContain("sk-one");
  });
});

describe("channel overrides in the drawer", () => {
  test("param_override and header_override are checked as JSON before sending, start from a template, and are saved", async () => {
    const id = await channel();
    await ui.page.goto(`/channel/edit/${id}`);
    await form().locator("input[name=name]").waitFor();
    await form().locator("textarea[name=param_override]").fill("{temperature: 1");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("The parameter override must be valid JSON!");
    await form().locator("[data-action=template-param_override]").click();
    await form().locator("textarea[name=header_override]").fill("[1,");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("The header override must be valid JSON!");
    await form().locator("textarea[name=header_override]").fill('{"Authorization":"Bearer x"}');
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("header_override cannot set Authorization");
    await form().locator("[data-action=template-header_override]").click();
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Channel updated");
    await storedUntil(id, (c) => c.param_override !== "" && c.header_override !== "");
    const saved = await stored(id);
    expect(JSON.parse(saved.param_override)).toEqual({ temperature: 0.2 });
    expect(JSON.parse(saved.header_override)).toEqual({ "X-Team": "research", "X-Trace": "{client_header:X-Trace}" });
  });
});

describe("channel list", () => {
  test("search by keyword, model and group; the id sort is kept in localStorage id-sort", async () => {
    const tag = uniqueName("s");
    const a = await channel({ name: `${tag}-a`, models: "rare-model-x", group: "vip" });
    const b = await channel({ name: `${tag}-b` });
    await listed(tag, a);
    await row(b).waitFor();
    await ui.page.fill("[data-testid=channel-search] input[name=model]", "rare-model-x");
    await ui.page.click("[data-testid=channel-search] button[type=submit]");
    await row(b).waitFor({ state: "detached" });
    expect(await row(a).count()).toBe(1);
    await ui.page.fill("[data-testid=channel-search] input[name=model]", "");
    await ui.page.selectOption("[data-testid=channel-search] select[name=group]", "vip");
    await ui.page.click("[data-testid=channel-search] button[type=submit]");
    await row(b).waitFor({ state: "detached" });
    await ui.page.getByText("Sort by ID").click();
    expect(await ui.page.evaluate(() => localStorage.getItem("id-sort"))).toBe("true");
    await ui.page.reload();
    expect(await ui.page.locator("input[name=idSort]").isChecked()).toBe(true);
    const sent = ui.page.waitForRequest((r) => r.url().includes("/api/channel/") && r.url().includes("id_sort=false"));
    await ui.page.getByText("Sort by ID").click();
    await sent;
  });

  test("inline priority and weight: weight below 0 becomes 0, priority below -999 becomes -999, fractions are refused", async () => {
    const id = await channel();
    await listed(String(id), id);
    const priority = row(id).locator("input[name=priority]");
    const weight = row(id).locator("input[name=weight]");
    await priority.fill("1.5");
    await priority.press("Enter");
    expect(await toastText(ui.page, "error")).toBe("The priority must be an integer!");
    expect(await priority.inputValue()).toBe("0");
    await priority.fill("-5000");
    await priority.press("Enter");
    await storedUntil(id, (c) => c.priority === -999);
    expect(await priority.inputValue()).toBe("-999");
    // Replies reach the page late, so the next edit is typed before the list hears of the last save.
    await ui.page.route("**/api/channel/", async (route) => {
      const reply = await route.fetch();
      await Bun.sleep(400);
      await route.fulfill({ response: reply });
    });
    await weight.fill("12");
    await weight.press("Enter");
    await storedUntil(id, (c) => c.weight === 12);
    await weight.fill("-3");
    await weight.press("Enter");
    await storedUntil(id, (c) => c.weight === 0);
    expect(await weight.inputValue()).toBe("0");
    await ui.page.unrouteAll({ behavior: "wait" });
  });

  test("row actions: test (default and a model from the menu) colours the response time; disable, enable, copy, delete", async () => {
    const id = await channel({ models: "gpt-4o-mini,fake-slow-1200ms" });
    await listed(String(id), id);
    expect(await row(id).locator("[data-tone]").getAttribute("data-tone")).toBe("untested");
    await row(id).locator("[data-action=test]").click();
    expect(await toastText(ui.page, "success")).toMatch(/^Channel .* tested: \d+ ms$/);
    expect(await row(id).locator("[data-tone]").getAttribute("data-tone")).toBe("green");
    await row(id).locator("[data-testid=test-models]").click();
    await screenshot(ui.page, "channel-test-menu", "en");
    await ui.page.locator("[data-testid=test-models-items]:popover-open").getByText("fake-slow-1200ms").click();
    expect(await toastText(ui.page, "success")).toContain("tested with fake-slow-1200ms");
    expect(await row(id).locator("[data-tone]").getAttribute("data-tone")).toBe("lime");

    await row(id).locator("[data-action=disable]").click();
    expect(await toastText(ui.page, "success")).toBe("Channel disabled");
    await row(id).locator("[data-status='2']").waitFor();
    expect((await stored(id)).status).toBe(2);
    await row(id).locator("[data-action=enable]").click();
    expect(await toastText(ui.page, "success")).toBe("Channel enabled");
    await row(id).locator("[data-status='1']").waitFor();

    await row(id).locator("[data-action=copy]").click();
    expect(await toastText(ui.page, "success")).toMatch(/^Channel copied as .*_copy$/);
    await row(id).locator("[data-action=delete]").click();
    await ui.page.getByRole("button", { name: "Cancel" }).click();
    await row(id).locator("[data-action=delete]").click();
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "success")).toBe("Channel deleted");
    expect((await ui.session.root.get(`/api/channel/${id}`)).body.success).toBe(false);
  });

  test("detect upstream: the row's button opens a dialog counting the channel's callers by group and client; Escape closes it", async () => {
    const model = uniqueName("dm");
    const name = uniqueName("detect");
    const id = await channel({ name, models: model });
    await callAs(ui.session, model, ["curl/8.5.0", "curl/8.5.0", "claude-cli/1.0.72 (external, cli)"]);

    await listed(name, id);
    await row(id).locator("[data-action=detect-upstream]").click();
    const table = ui.page.getByTestId("upstream-clients");
    await table.waitFor();
    const cells = await table
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((r) => [...r.children].slice(-4, -2).map((c) => c.textContent)));
    expect(cells).toEqual([
      ["curl", "2"],
      ["claude-code", "1"],
    ]);
    expect(await table.locator("tbody th").allTextContents()).toEqual(["default"]);
    await screenshot(ui.page, "channel-detect-upstream", "en");
    await ui.page.keyboard.press("Escape");
    await table.waitFor({ state: "detached" });
  });

  test("test all auto-disables a failing channel; its status shows the reason; a second run is refused while one runs", async () => {
    await ui.session.root.put("/api/option/", { key: "AutomaticDisableChannelEnabled", value: "true" });
    const failing = await channel({ test_model: "fake-error-401" });
    const slow = await channel({ test_model: "fake-slow-1500ms" });
    await listed(String(failing), failing);
    await ui.page.click("[data-action=test-all]");
    expect(await toastText(ui.page, "success")).toBe(
      "Testing all channels in the background; refresh to see the results",
    );
    await ui.page.click("[data-action=test-all]");
    expect(await toastText(ui.page, "error")).toBe("test already running");
    await storedUntil(failing, (c) => c.status === 3);
    await ui.page.click("[data-action=refresh]");
    const reason = row(failing).locator("[data-testid=disable-reason]");
    await reason.waitFor();
    expect(await reason.getAttribute("data-tip")).toMatch(
      /^Reason: status code 401: .*; at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    await ui.session.root.put("/api/option/", { key: "AutomaticDisableChannelEnabled", value: "false" });
    await ui.session.root.put("/api/channel/", { id: slow, status: 2 });
  });

  test("balances: one row on click, all enabled channels from the toolbar; delete disabled channels; repair the database", async () => {
    const id = await channel();
    await listed(String(id), id);
    await row(id).locator("[data-action=balance]").click();
    expect(await toastText(ui.page, "success")).toBe("Balance updated: $87.66");
    expect(await row(id).locator("[data-action=balance]").textContent()).toBe("$87.66");
    await ui.page.click("[data-action=update-balances]");
    expect(await toastText(ui.page, "success")).toMatch(
      /^Balances: \d+ updated, 0 failed, \d+ not supported by their type$/,
    );

    const disabled = await channel();
    await ui.session.root.put("/api/channel/", { id: disabled, status: 2 });
    await ui.page.click("[data-action=delete-disabled]");
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "success")).toMatch(/^Deleted [1-9]\d* disabled channels$/);
    expect((await ui.session.root.get(`/api/channel/${disabled}`)).body.success).toBe(false);
    await ui.page.click("[data-action=fix]");
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "success")).toMatch(/^Repaired: \d+ abilities rebuilt from \d+ channels$/);
  });

  test("batch mode: delete and set tag need a selection, the tag must not be blank; tag mode rows enable, disable and edit the tag", async () => {
    const prefix = uniqueName("tg");
    const ids = [await channel({ name: `${prefix}-1` }), await channel({ name: `${prefix}-2` })];
    await listed(prefix, ids[0]);
    await ui.page.getByText("Batch mode").click();
    await ui.page.click("[data-action=delete-selected]");
    expect(await toastText(ui.page, "error")).toBe("Please select the channels to delete first!");
    await ui.page.click("[data-action=tag-selected]");
    expect(await toastText(ui.page, "error")).toBe("Please select the channels to set a tag for first!");
    await ui.page.click("[data-testid=channels-table] [data-testid=select-all]");
    await ui.page.click("[data-action=tag-selected]");
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "error")).toBe("The tag cannot be empty!");
    await ui.page.fill("input[name=batch_tag]", prefix);
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "success")).toBe("Tag set on 2 channels");

    await ui.page.getByText("Group by tag").click();
    const tagRow = ui.page.locator(`[data-testid=channels-table] tr[data-row="tag:${prefix}"]`);
    await tagRow.waitFor();
    expect(await tagRow.textContent()).toContain("2 channels");
    await tagRow.locator("[data-action=disable-tag]").click();
    expect(await toastText(ui.page, "success")).toBe("Disabled 2 channels");
    expect((await stored(ids[1]!)).status).toBe(2);
    await tagRow.locator("[data-action=enable-tag]").click();
    expect(await toastText(ui.page, "success")).toBe("Enabled 2 channels");
    await tagRow.locator("[data-testid=toggle-tag]").click();
    await row(ids[0]!).waitFor();

    const priority = tagRow.locator("input[name=priority]");
    await priority.fill("2.5");
    await priority.press("Enter");
    expect(await toastText(ui.page, "error")).toBe("The priority must be an integer!");
    const weight = tagRow.locator("input[name=weight]");
    await weight.fill("-1");
    await weight.press("Enter");
    expect(await toastText(ui.page, "error")).toBe("The weight must be a non-negative integer!");
    await priority.fill("5");
    await priority.press("Enter");
    expect(await toastText(ui.page, "success")).toBe("Updated 2 channels");
    expect((await stored(ids[1]!)).priority).toBe(5);

    await tagRow.locator("[data-action=edit-tag]").click();
    const dialog = ui.page.getByTestId("tag-edit");
    await screenshot(ui.page, "channel-tag-edit", "en");
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "error")).toBe("Nothing changed!");
    await dialog.locator("textarea[name=model_mapping]").fill("[1,");
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "error")).toBe("The model mapping must be valid JSON!");
    await dialog.locator("textarea[name=model_mapping]").fill("");
    await dialog.locator("input[name=new_tag]").fill(`${prefix}x`);
    await dialog.locator("textarea[name=models]").fill("gpt-4o");
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "success")).toBe("Updated 2 channels");
    expect(await stored(ids[0]!)).toMatchObject({ tag: `${prefix}x`, models: "gpt-4o" });
    await ui.page
      .locator(`[data-testid=channels-table] tr[data-row="tag:${prefix}x"] [data-testid=toggle-tag]`)
      .click();
    await row(ids[1]!).waitFor();
    await screenshot(ui.page, "channels-tag-mode", "en");

    await ui.page.click("[data-testid=channels-table] [data-testid=select-all]");
    await ui.page.click("[data-action=delete-selected]");
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "success")).toBe("Deleted 2 channels");
    expect((await ui.session.root.get(`/api/channel/${ids[0]}`)).body.success).toBe(false);
  });

  test("an ordinary user neither sees the channel screen nor may open it", () =>
    expectAdminOnly(ui.session, "/channel", "channel"));
});

describe("channel screens in both languages", () => {
  const screen = {
    name: "channels",
    path: "/channel",
    table: "channels-table",
    add: "add-channel",
    form: "channel-form",
    text: { zh: "添加渠道", en: "Add channel" },
  };
  for (const language of ["zh", "en"] as const) {
    test(
      `the list, the drawer and the phone layout read in ${language}`,
      async () => {
        await channel({ name: "OpenAI main", group: "default,vip" });
        await screenshotList(ui.session, language, screen, ROOT_PASSWORD);
      },
      3 * SLOW_MS,
    );
  }

  test(
    "the dark theme renders the channel list",
    async () => {
      const page = await ui.session.page({ language: "zh" });
      page.setDefaultTimeout(SLOW_MS);
      await page.addInitScript(() => localStorage.setItem("theme", '"dark"'));
      await signIn(page, "root", ROOT_PASSWORD);
      await page.goto("/channel");
      await page.getByTestId("channels-table").locator("tbody tr").first().waitFor();
      await screenshot(page, "channels-dark", "zh");
    },
    2 * SLOW_MS,
  );
});
