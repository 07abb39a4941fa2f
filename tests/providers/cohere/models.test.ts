import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, useAdminServer } from "../../support/channels";
import type { ApiClient } from "../../support/client";
import { DIALECTS } from "../../support/databases";
import { COHERE_MODELS, startFakeCohere } from "../../support/fake-cohere";
import type { LoopbackFake } from "../../support/loopback-fake";
import type { TestServer } from "../../support/server";

describe.each(DIALECTS)("a Cohere channel's model list on %s", (dialect) => {
  const KEY = "cohere-list-key-5151";
  let s: TestServer;
  let admin: ApiClient;
  let cohere: LoopbackFake;
  useAdminServer(dialect, (started) => ({ s, admin } = started));
  beforeAll(() => {
    cohere = startFakeCohere(KEY);
  });
  afterAll(() => cohere.stop());

  test("fetch models follows Cohere's pages with the bearer key", async () => {
    const id = await createChannel(s, { type: 34, base_url: cohere.url, key: KEY });
    expect((await admin.get(`/api/channel/fetch_models/${id}`)).body).toEqual({
      success: true,
      message: "",
      data: COHERE_MODELS,
    });
    expect(cohere.requests.map((r) => new URL(r.url).search)).toEqual([
      "?page_size=1000",
      "?page_size=1000&page_token=2",
    ]);
  });
});
