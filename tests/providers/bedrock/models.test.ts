import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, useAdminServer } from "../../support/channels";
import type { ApiClient } from "../../support/client";
import { DIALECTS } from "../../support/databases";
import { startFakeBedrock, type FakeBedrock } from "../../support/fake-bedrock";
import { expectNoSecrets, refused } from "../../support/upstream-refusals";
import type { TestServer } from "../../support/server";

const AK = "AKIAFAKELIST0000001";
const SK = "list-secret/0123456789abcdefEXAMPLEKEY";
const MODELS = ["anthropic.claude-3-haiku-20240307-v1:0", "meta.llama3-8b-instruct-v1:0", "amazon.nova-pro-v1:0"];

describe.each(DIALECTS)("an AWS Bedrock channel's model list on %s", (dialect) => {
  let s: TestServer;
  let admin: ApiClient;
  let bedrock: FakeBedrock;
  useAdminServer(dialect, (started) => ({ s, admin } = started));
  beforeAll(() => {
    bedrock = startFakeBedrock({ accessKeyId: AK, secretAccessKey: SK, region: "eu-central-1", models: MODELS });
  });
  afterAll(() => bedrock.stop());

  test("the control plane's signed GET /foundation-models lists the model ids, for a form's values and a stored channel", async () => {
    const reply = await admin.post("/api/channel/fetch_models", {
      type: 33,
      base_url: bedrock.url,
      key: `${AK}|${SK}`,
      other: "eu-central-1",
    });
    expect(reply.body).toEqual({ success: true, message: "", data: MODELS });
    expect(bedrock.requests.at(-1)).toMatchObject({ method: "GET", path: "/foundation-models" });
    expect(bedrock.requests.at(-1)!.headers.authorization).toContain(`Credential=${AK}/`);
    const id = await createChannel(s, { type: 33, base_url: bedrock.url, key: `${AK}|${SK}`, other: "eu-central-1" });
    expect((await admin.get(`/api/channel/fetch_models/${id}`)).body.data).toEqual(MODELS);
  });

  test("a wrong secret is told by status without the key; no region is told as such", async () => {
    const wrong = `${AK}|wrong-secret-777`;
    const reply = await admin.post("/api/channel/fetch_models", {
      type: 33,
      base_url: bedrock.url,
      key: wrong,
      other: "eu-central-1",
    });
    refused(reply, "fetching the model list failed: the upstream answered HTTP 403");
    expectNoSecrets(reply, bedrock, "wrong-secret-777");
    const none = await admin.post("/api/channel/fetch_models", { type: 33, base_url: bedrock.url, key: `${AK}|${SK}` });
    refused(
      none,
      "fetching the model list failed: the AWS channel has no region: set it in the channel's region field (e.g. us-east-1)",
    );
  });
});
