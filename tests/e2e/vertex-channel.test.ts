import { expect, test } from "bun:test";
import { testServiceAccount } from "../support/fake-vertex";
import { toastText, uniqueName, useConsole } from "./support/console";

const ui = useConsole({ rootPage: true });
const form = () => ui.page.getByTestId("channel-form");

/** Opens the add form as a Vertex AI channel, named, with a model. */
async function vertexForm(name: string) {
  await ui.page.goto("/channel/add");
  await form().locator("select[name=type]").selectOption("41");
  await form().locator("input[name=name]").fill(name);
  await form().locator("input[name=custom_models]").fill("gemini-2.5-flash");
  await form().locator("[data-action=add-custom]").click();
}

/** Chooses a .json file in the upload field and waits until the browser has read it into the key field. */
async function upload(text: string) {
  await form()
    .locator("input[name=service_account_file]")
    .setInputFiles({ name: "key.json", mimeType: "application/json", buffer: Buffer.from(text) });
  await ui.page.waitForFunction(
    () => (document.querySelector("textarea[name=key]") as HTMLTextAreaElement | null)?.value !== "",
  );
}

test("Vertex AI: the service account's JSON file fills the key, the region field shows us-central1, the channel is saved", async () => {
  const account = await testServiceAccount("https://oauth2.googleapis.com/token");
  const name = uniqueName("vertex");
  await vertexForm(name);
  expect(await form().locator("input[name=other]").inputValue()).toBe("us-central1");
  await upload(account.key);
  expect(await form().locator("textarea[name=key]").inputValue()).toBe(account.key);
  await form().locator("input[name=other]").fill("europe-west4");
  await form().locator("button[type=submit]").click();
  expect(await toastText(ui.page, "success")).toBe("Channel created");
  const items = (await ui.session.root.get(`/api/channel/search?keyword=${name}`)).body.data.items;
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ type: 41, other: "europe-west4" });
});

test("Vertex AI: a file that is not a service account's JSON key is refused with the server's message, nothing saved", async () => {
  const name = uniqueName("vertex");
  await vertexForm(name);
  await upload('{"type":"service_account","private_key":"SECRET"}');
  await form().locator("button[type=submit]").click();
  const message = await toastText(ui.page, "error");
  expect(message).toContain("the key is not a service account's JSON key");
  expect(message).not.toContain("SECRET");
  expect((await ui.session.root.get(`/api/channel/search?keyword=${name}`)).body.data.items).toHaveLength(0);
});
