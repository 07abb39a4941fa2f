import { describe, expect, test } from "bun:test";
import { registeredUser, signIn, toastText, uniqueName, useConsole } from "./support/console";

const ui = useConsole({ rootPage: true });

const row = (username: string) =>
  ui.page.locator("[data-testid=users-table] tr", { has: ui.page.getByText(username, { exact: true }) });

async function findUser(username: string) {
  await ui.page.goto("/user");
  await ui.page.fill("input[name=keyword]", username);
  const searched = ui.page.waitForResponse((r) => new URL(r.url()).searchParams.get("keyword") === username);
  await ui.page.getByRole("button", { name: "Search", exact: true }).click();
  await searched;
  await row(username).waitFor();
  return row(username);
}

describe("user administration", () => {
  test("an admin adds a user in the drawer; username and password are required", async () => {
    await ui.page.goto("/user");
    await ui.page.click("[data-testid=add-user]");
    const form = ui.page.getByTestId("add-user-form");
    await form.locator("button[type=submit]").click();
    expect(await toastText(ui.page, "error")).toBe("Please enter your username and password");
    const username = uniqueName("add");
    await form.locator("input[name=username]").fill(username);
    await form.locator("input[name=display_name]").fill("Added Person");
    await form.locator("input[name=password]").fill("password123");
    await form.locator("button[type=submit]").click();
    expect(await toastText(ui.page, "success")).toBe("User created");
    expect((await ui.session.api().login(username, "password123")).body.success).toBe(true);
  });

  test("search by keyword and by group narrows the paged list", async () => {
    const user = await registeredUser(ui.session);
    const found = await findUser(user.username);
    // The unfiltered first page shows the new user too; the searched page shows only it.
    await ui.page.waitForFunction(() => document.querySelectorAll("[data-testid=users-table] tbody tr").length === 1);
    expect(await ui.page.locator("[data-testid=users-table] tbody tr").count()).toBe(1);
    expect(await found.textContent()).toContain(user.username);
    await ui.page.fill("input[name=keyword]", "");
    await ui.page.selectOption("select[name=group]", "vip");
    await ui.page.getByRole("button", { name: "Search", exact: true }).click();
    await ui.page.getByText("No data").waitFor();
  });

  test("a slow answer for the unfiltered list does not replace the search asked for since", async () => {
    const user = await registeredUser(ui.session);
    const unfiltered = (url: URL) => url.pathname === "/api/user/";
    await ui.page.route(unfiltered, async (route) => {
      await Bun.sleep(1000);
      await route.continue();
    });
    const slowFinished = ui.page.waitForEvent("requestfinished", (r) => unfiltered(new URL(r.url())));
    try {
      await findUser(user.username);
      await slowFinished;
      // Two frames: React has rendered whatever the slow answer set.
      await ui.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect(await ui.page.locator("[data-testid=users-table] tbody tr").count()).toBe(1);
    } finally {
      await ui.page.unroute(unfiltered);
    }
  });

  test("the page size choice (10/20/50/100) is kept in localStorage page-size", async () => {
    for (let i = 0; i < 11; i++) await registeredUser(ui.session);
    await ui.page.goto("/user");
    await ui.page.locator("[data-testid=users-table] tbody tr").nth(9).waitFor();
    expect(await ui.page.locator("[data-testid=users-table] tbody tr").count()).toBe(10);
    expect(await ui.page.locator("[data-testid=page-size] option").allTextContents()).toEqual([
      "10 / page",
      "20 / page",
      "50 / page",
      "100 / page",
    ]);
    await ui.page.selectOption("[data-testid=page-size]", "20");
    await ui.page.locator("[data-testid=users-table] tbody tr").nth(10).waitFor();
    expect(await ui.page.evaluate(() => localStorage.getItem("page-size"))).toBe("20");
    await ui.page.reload();
    expect(await ui.page.locator("[data-testid=page-size]").inputValue()).toBe("20");
    await ui.page.selectOption("[data-testid=page-size]", "10");
  });

  test("the edit drawer sends only changed fields; a negative addition lowers the quota (quota = current + addition)", async () => {
    await ui.session.root.put("/api/option/", { key: "QuotaForNewUser", value: "1000000" });
    const user = await registeredUser(ui.session);
    await ui.session.root.put("/api/option/", { key: "QuotaForNewUser", value: "0" });
    const found = await findUser(user.username);
    await found.locator("[data-action=edit]").click();
    const form = ui.page.getByTestId("edit-user-form");
    await form.locator("input[name=username]").waitFor();
    await form.locator("button[type=submit]").click();
    expect(await toastText(ui.page, "info")).toBe("Nothing changed");
    await form.locator("input[name=quota_addition]").fill("-250000");
    await form.locator("input[name=display_name]").fill("Renamed");
    const sent = ui.page.waitForRequest((r) => r.url().endsWith("/api/user/") && r.method() === "PUT");
    await form.locator("button[type=submit]").click();
    expect((await sent).postDataJSON()).toEqual({ id: user.userId, display_name: "Renamed", quota: 750000 });
    expect(await toastText(ui.page, "success")).toBe("User updated");
    const self = (await user.get("/api/user/self")).body.data;
    expect({ quota: self.quota, display_name: self.display_name }).toEqual({ quota: 750000, display_name: "Renamed" });
  });

  test("the edit drawer sets the user's requests and tokens per minute; a negative limit is refused before sending", async () => {
    const user = await registeredUser(ui.session);
    const found = await findUser(user.username);
    await found.locator("[data-action=edit]").click();
    const form = ui.page.getByTestId("edit-user-form");
    await form.locator("input[name=rpm_limit]").waitFor();
    await form.locator("input[name=rpm_limit]").fill("-1");
    await form.locator("button[type=submit]").click();
    expect(await toastText(ui.page, "error")).toBe("Limits per minute must be whole numbers (0 for none)");
    await form.locator("input[name=rpm_limit]").fill("12");
    await form.locator("input[name=tpm_limit]").fill("5000");
    const sent = ui.page.waitForRequest((r) => r.url().endsWith("/api/user/") && r.method() === "PUT");
    await form.locator("button[type=submit]").click();
    expect((await sent).postDataJSON()).toEqual({ id: user.userId, rpm_limit: 12, tpm_limit: 5000 });
    expect(await toastText(ui.page, "success")).toBe("User updated");
    const stored = (await ui.session.root.get(`/api/user/${user.userId}`)).body.data;
    expect({ rpm: stored.rpm_limit, tpm: stored.tpm_limit }).toEqual({ rpm: 12, tpm: 5000 });
  });

  test("promote, demote, disable and enable update the row from the manage reply", async () => {
    const user = await registeredUser(ui.session);
    const found = await findUser(user.username);
    await found.locator("[data-action=promote]").click();
    await ui.page.waitForFunction(
      (name) =>
        [...document.querySelectorAll("[data-testid=users-table] tr")].some(
          (tr) =>
            tr.textContent!.includes(name) && tr.querySelector("[data-testid=role]")!.textContent === "Administrator",
        ),
      user.username,
    );
    await found.locator("[data-action=demote]").click();
    await found.locator("[data-testid=role]", { hasText: "Ordinary user" }).waitFor();
    await found.locator("[data-action=disable]").click();
    await found.locator("[data-testid=status]", { hasText: "Banned" }).waitFor();
    expect(await found.locator("[data-action=disable]").count()).toBe(0);
    await found.locator("[data-action=enable]").click();
    await found.locator("[data-testid=status]", { hasText: "Active" }).waitFor();
    expect((await ui.session.root.get(`/api/user/${user.userId}`)).body.data.status).toBe(1);
  });

  test("the server's refusals show: the super administrator cannot be disabled, an ordinary user cannot be demoted", async () => {
    const rootRow = await findUser("root");
    await rootRow.locator("[data-action=disable]").click();
    expect(await toastText(ui.page, "error")).toBe("the super administrator cannot be disabled");
    const user = await registeredUser(ui.session);
    const found = await findUser(user.username);
    await found.locator("[data-action=demote]").click();
    expect(await toastText(ui.page, "error")).toBe("the user is already an ordinary user");
  });

  test("delete asks for confirmation, then marks the row deleted with no actions left", async () => {
    const user = await registeredUser(ui.session);
    const found = await findUser(user.username);
    await found.locator("[data-action=delete]").click();
    await ui.page.getByRole("button", { name: "Cancel" }).click();
    expect(await found.locator("[data-testid=status]").textContent()).toBe("Active");
    await found.locator("[data-action=delete]").click();
    await ui.page.click("[data-testid=confirm]");
    await found.locator("[data-testid=status]", { hasText: "Deleted" }).waitFor();
    expect(await found.locator("[data-action]").count()).toBe(0);
    expect((await user.get("/api/user/self")).status).toBe(401);
  });

  test("an ordinary user neither sees the screen in the menu nor may open it", async () => {
    const user = await registeredUser(ui.session);
    const other = await ui.session.page({ language: "en" });
    await signIn(other, user.username, "password123");
    expect(await other.locator("[data-menu=user]").count()).toBe(0);
    await other.goto("/user");
    expect(await other.getByTestId("forbidden").textContent()).toBe("You do not have permission to view this page.");
  });

  test("/user/edit/{id} edits a user as a page", async () => {
    const user = await registeredUser(ui.session);
    await ui.page.goto(`/user/edit/${user.userId}`);
    const form = ui.page.getByTestId("edit-user-form");
    await form.locator("input[name=remark]").fill("vip customer");
    await form.locator("button[type=submit]").click();
    await ui.page.waitForURL("**/user");
    expect((await ui.session.root.get(`/api/user/${user.userId}`)).body.data.remark).toBe("vip customer");
  });
});
