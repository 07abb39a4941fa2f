import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toFile } from "openai";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, type RelayEnv } from "./support";

/** A 1×1 PNG, as a client would upload it. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

describe.each(DIALECTS)("image uploads (edits and variations) on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await r.setPrices({}, {}, { "dall-e-2": 0.02 });
    await r.addChannel({ models: "dall-e-2" });
  });
  afterAll(() => r.stop());

  const charged = async (call: () => Promise<unknown>) => {
    const before = await r.tokenRow();
    await call();
    await r.flushed();
    return before.remain_quota - (await r.tokenRow()).remain_quota;
  };

  test("POST /v1/images/edits (form data) is relayed and billed per image: price × QuotaPerUnit × n", async () => {
    const image = await toFile(PNG, "cat.png", { type: "image/png" });
    let reply: any;
    const cost = await charged(async () => {
      reply = await r.openai().images.edit({ model: "dall-e-2", image, prompt: "add a hat", n: 2 });
    });
    expect(reply.data).toHaveLength(2);
    expect(r.fake.requests.at(-1)).toMatchObject({
      path: "/v1/images/edits",
      body: { model: "dall-e-2", prompt: "add a hat", n: "2", image: { name: "cat.png", size: PNG.byteLength } },
    });
    expect(cost).toBe(2 * 0.02 * 500000);
    expect((await r.consumeLogs()).at(-1)).toMatchObject({ model_name: "dall-e-2", quota: cost });
  });

  test("POST /v1/images/variations (form data, no model named: dall-e-2) is billed per image", async () => {
    const image = await toFile(PNG, "cat.png", { type: "image/png" });
    let reply: any;
    const cost = await charged(async () => {
      reply = await r.openai().images.createVariation({ image, n: 3 });
    });
    expect(reply.data).toHaveLength(3);
    expect(r.fake.requests.at(-1)).toMatchObject({ path: "/v1/images/variations", body: { model: "dall-e-2" } });
    expect(cost).toBe(3 * 0.02 * 500000);
  });
});
