import { describe, expect, test } from "bun:test";
import { registeredUser, ROOT_PASSWORD, toastText, uniqueName, useConsole } from "./support/console";
import { expectAdminOnly, screenshotList, searchList, SLOW_MS } from "./support/lists";

const ui = useConsole({ rootPage: true });

/** Codes made through the API; answers the stored rows. */
async function codes(count = 1, fields: Record<string, unknown> = {}) {
  const name = uniqueName("rc");
  const reply = await ui.session.root.post("/api/redemption/", { name, quota: 100000, count, ...fields });
  expect(reply.body.success).toBe(true);
  return (await ui.session.root.get(`/api/redemption/search?keyword=${name}`)).body.data.items as {
    id: number;
    key: string;
    name: string;
  }[];
}

const row = (id: number) => ui.page.locator(`[data-testid=redemptions-table] tr[data-row="${id}"]`);
const form = () => ui.page.getByTestId("redemption-form");
const submitForm = () => form().locator("button[type=submit]").click();
const clipboard = () => ui.page.evaluate(() => navigator.clipboard.readText());
const stored = async (id: number) => (await ui.session.root.get(`/api/redemption/${id}`)).body.data;

async function search(keyword: string, id?: number): Promise<void> {
  await searchList(ui.page, "/redemption", "redemption-search", { keyword });
  if (id !== undefined) await row(id).waitFor();
}

describe("redemption codes", () => {
  test("add: at most 100 at once, names of at most 20 characters; the created keys are shown to copy", async () => {
    await ui.page.goto("/redemption");
    await ui.page.click("[data-action=add-redemption]");
    await form().locator("input[name=count]").fill("101");
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("The count must be between 1 and 100");
    await form().locator("input[name=count]").fill("3");
    await form().locator("input[name=name]").fill("x".repeat(21));
    await submitForm();
    expect(await toastText(ui.page, "error")).toBe("The name must be at most 20 characters");
    const name = uniqueName("add");
    await form().locator("input[name=name]").fill(name);
    await form().locator("input[name=quota]").fill("250000");
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Redemption codes created");
    const keys = (await ui.page.getByTestId("key-list").inputValue()).split("\n");
    expect(keys).toHaveLength(3);
    await ui.page.click("[data-testid=copy-keys]");
    expect(await clipboard()).toBe(keys.join("\n"));
    const listed = (await ui.session.root.get(`/api/redemption/search?keyword=${name}`)).body.data.items;
    expect(listed.map((c: { key: string }) => c.key).sort()).toEqual([...keys].sort());
    expect(listed.every((c: { quota: number; status: number }) => c.quota === 250000 && c.status === 1)).toBe(true);
  });

  test("a blank name becomes the formatted quota", async () => {
    await ui.page.goto("/redemption");
    await ui.page.click("[data-action=add-redemption]");
    await form().locator("input[name=quota]").fill("500000");
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Redemption codes created");
    const [key] = (await ui.page.getByTestId("key-list").inputValue()).split("\n");
    const items = (await ui.session.root.get("/api/redemption/?page_size=100")).body.data.items;
    expect(items.find((c: { key: string }) => c.key === key).name).toBe("$1.00");
  });

  test("quota presets of spec §9 ($1 … $1000) fill the quota field", async () => {
    await ui.page.goto("/redemption");
    await ui.page.click("[data-action=add-redemption]");
    const presets = form().getByTestId("quota-presets").locator("[data-preset]");
    expect(await presets.allTextContents()).toEqual(["$1", "$10", "$50", "$100", "$500", "$1000"]);
    await presets.filter({ hasText: "$50" }).first().click();
    expect(await form().locator("input[name=quota]").inputValue()).toBe(String(50 * 500_000));
    await ui.page.keyboard.press("Escape");
    await form().waitFor({ state: "detached" });
  });

  test("search by id or name; copy selected needs a selection, then copies the ticked codes", async () => {
    const [a, b] = await codes(2);
    await search(String(a!.id), a!.id);
    const found = await ui.page.locator("[data-testid=redemptions-table] tbody tr").evaluateAll((rows) =>
      rows.map((r) => ({
        id: Number(r.getAttribute("data-row")),
        name: r.querySelector("td:nth-child(3)")!.textContent!,
      })),
    );
    expect(found.every((c) => c.id === a!.id || c.name.includes(String(a!.id)))).toBe(true);
    await search(a!.name, a!.id);
    await row(b!.id).waitFor();
    await ui.page.click("[data-action=copy-selected]");
    expect(await toastText(ui.page, "error")).toBe("Please select at least one redemption code!");
    await row(b!.id).getByTestId("select-row").check();
    await ui.page.click("[data-action=copy-selected]");
    expect(await toastText(ui.page, "success")).toBe("Copied 1 redemption codes to the clipboard");
    expect(await clipboard()).toBe(b!.key);
    await row(a!.id).locator("[data-action=view]").click();
    expect(await ui.page.getByTestId("key-list").inputValue()).toBe(a!.key);
  });

  test("status rules: a disabled code offers enable and no edit; a used code offers neither; edit changes an unused code", async () => {
    const [code] = await codes();
    await search(code!.name, code!.id);
    await row(code!.id).locator("[data-action=disable]").click();
    expect(await toastText(ui.page, "success")).toBe("Redemption code disabled");
    await row(code!.id).locator("[data-status='2']", { hasText: "Disabled" }).waitFor();
    expect(await row(code!.id).locator("[data-action=edit]").count()).toBe(0);
    await row(code!.id).locator("[data-action=enable]").click();
    expect(await toastText(ui.page, "success")).toBe("Redemption code enabled");
    await row(code!.id).locator("[data-status='1']", { hasText: "Unused" }).waitFor();

    await row(code!.id).locator("[data-action=edit]").click();
    await form().locator("input[name=name]").fill("renamed");
    await form().locator("input[name=quota]").fill("300000");
    await submitForm();
    expect(await toastText(ui.page, "success")).toBe("Redemption code updated");
    expect(await stored(code!.id)).toMatchObject({ name: "renamed", quota: 300000 });

    const user = await registeredUser(ui.session);
    expect((await user.post("/api/user/topup", { key: code!.key })).body.success).toBe(true);
    await search(String(code!.id), code!.id);
    await row(code!.id).locator("[data-status='3']", { hasText: "Used" }).waitFor();
    expect(await row(code!.id).textContent()).toContain(String(user.userId));
    expect(await row(code!.id).locator("[data-action=enable], [data-action=disable], [data-action=edit]").count()).toBe(
      0,
    );
  });

  test("delete asks first", async () => {
    const [code] = await codes();
    await search(code!.name, code!.id);
    await row(code!.id).locator("[data-action=delete]").click();
    await ui.page.getByRole("button", { name: "Cancel" }).click();
    await row(code!.id).locator("[data-action=delete]").click();
    await ui.page.click("[data-testid=confirm]");
    expect(await toastText(ui.page, "success")).toBe("Redemption code deleted");
    expect((await ui.session.root.get(`/api/redemption/${code!.id}`)).body.success).toBe(false);
  });

  test("an ordinary user neither sees the screen nor may open it", () =>
    expectAdminOnly(ui.session, "/redemption", "redemption"));
});

describe("redemption screens in both languages", () => {
  const screen = {
    name: "redemptions",
    path: "/redemption",
    table: "redemptions-table",
    add: "add-redemption",
    form: "redemption-form",
    text: { zh: "添加兑换码", en: "Add redemption codes" },
  };
  for (const language of ["zh", "en"] as const) {
    test(
      `the list, the drawer and the phone layout read in ${language}`,
      async () => {
        await codes(2);
        await screenshotList(ui.session, language, screen, ROOT_PASSWORD);
      },
      3 * SLOW_MS,
    );
  }
});
