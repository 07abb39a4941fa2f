import { expect, test } from "bun:test";
import { ApiClient, expectFailure } from "../support/client";
import { SERVE_MODEL, SERVE_ROOT_PASSWORD, useServeFixture } from "../support/serve-process";

const fixture = useServeFixture("tollgate-egress-");
const METADATA = "http://169.254.169.254";
const refusedMetadata =
  "upstream address 169.254.169.254 is not allowed by the upstream address policy (link-local or cloud metadata)";
const refusedLoopback =
  "upstream address 127.0.0.1 is not allowed by the upstream address policy (loopback, not in the allowed private ranges)";

/**
 * A `serve` process whose environment allows no private address (a real install's default), with root and a
 * non-root admin signed in, SERVE_MODEL priced, and a relay key of root's.
 */
async function gatewayWithoutAllowance(env: Record<string, string> = {}) {
  const { url } = await fixture.start({ UPSTREAM_ALLOW_PRIVATE: "", ...env });
  const root = new ApiClient(url);
  await root.login("root", SERVE_ROOT_PASSWORD);
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [SERVE_MODEL]: 1, "whisper-1": 1 }) });
  await root.put("/api/option/", { key: "RetryTimes", value: 5 });
  const admin = new ApiClient(url);
  await admin.post("/api/user/register", { username: "netadmin", password: "password123", password2: "password123" });
  await admin.login("netadmin", "password123");
  expect((await root.post("/api/user/manage", { id: admin.userId, action: "promote" })).body.success).toBe(true);
  const key = (await root.post("/api/token/", { name: "k", unlimited_quota: true })).body.data.keys[0];
  const relay = (model = SERVE_MODEL) =>
    fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
    });
  const channel = async (base_url: string, models = SERVE_MODEL): Promise<number> => {
    const reply = await admin.post("/api/channel/", {
      type: 1,
      name: "c",
      key: "sk-x",
      base_url,
      models,
      group: "default",
    });
    expect(reply.body.success).toBe(true);
    return reply.body.data.id;
  };
  const transcribe = () => {
    const form = new FormData();
    form.set("model", "whisper-1");
    form.set("file", new File([new Uint8Array(64)], "a.wav", { type: "audio/wav" }));
    return fetch(`${url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
  };
  return { root, admin, relay, transcribe, channel };
}

/** What an admin sees of the channel's test, model list and balance. */
async function upstreamCalls(admin: ApiClient, id: number) {
  const tested = (await admin.get(`/api/channel/test/${id}`)).body;
  return {
    test: { success: tested.success, message: tested.message },
    models: await admin.get(`/api/channel/fetch_models/${id}`),
    balance: await admin.get(`/api/channel/update_balance/${id}`),
  };
}

test("a non-root admin's channel to the metadata address or to loopback (by address or by a name resolving there) is refused by the channel test, the model list, the balance and the relay; the upstream receives nothing", async () => {
  const { admin, relay, channel } = await gatewayWithoutAllowance();
  const fake = fixture.fake;
  const port = new URL(fake.url).port;
  const targets = [
    { id: await channel(METADATA), message: refusedMetadata },
    { id: await channel(fake.url), message: refusedLoopback },
    { id: await channel(`http://localhost:${port}`), message: refusedLoopback },
  ];
  for (const { id, message } of targets) {
    const calls = await upstreamCalls(admin, id);
    expect(calls.test).toEqual({ success: false, message });
    expectFailure(calls.models, 200, `fetching the model list failed: ${message}`);
    expectFailure(calls.balance, 200, `querying the balance failed: ${message}`);
  }
  const given = await admin.post("/api/channel/fetch_models", {
    type: 1,
    base_url: `http://[::ffff:127.0.0.1]:${port}`,
    key: "sk-x",
  });
  expectFailure(given, 200, `fetching the model list failed: ${refusedLoopback}`);

  const reply = await relay();
  expect(reply.status).toBe(502);
  const { error } = await reply.json();
  expect(error.code).toBe("upstream_address_not_allowed");
  expect([refusedMetadata, refusedLoopback]).toContain(error.message.replace(/ \(request id: \w+\)$/, ""));
  expect(fake.requests).toEqual([]);
});

test("only root sets the allowed private ranges: once it allows 127.0.0.1/32 the loopback channel works (by name too), metadata stays refused, and taking it back refuses again", async () => {
  const { root, admin, relay, channel } = await gatewayWithoutAllowance();
  const fake = fixture.fake;
  const metadata = await channel(METADATA, "other-model");
  const loopback = await channel(fake.url);
  const byName = await channel(`http://localhost:${new URL(fake.url).port}`, "named-model");
  const allow = (client: ApiClient, value: string) =>
    client.put("/api/option/", { key: "UpstreamAllowedPrivateRanges", value });

  expect((await allow(admin, "127.0.0.1/32")).body.success).toBe(false);
  expect((await upstreamCalls(admin, loopback)).test).toEqual({ success: false, message: refusedLoopback });
  expectFailure(
    await allow(root, "127.0.0.1/33"),
    200,
    'UpstreamAllowedPrivateRanges: "127.0.0.1/33" is not an IP address, a CIDR range or a host name',
  );

  expect((await allow(root, "127.0.0.1/32")).body.success).toBe(true);
  const calls = await upstreamCalls(admin, loopback);
  expect(calls.test.success).toBe(true);
  expect(calls.models.body.success).toBe(true);
  expect(calls.models.body.data).toContain("gpt-4o");
  expect(calls.balance.body.success).toBe(true);
  expect((await upstreamCalls(admin, byName)).test.success).toBe(true);
  expect((await relay()).status).toBe(200);
  expect((await upstreamCalls(admin, metadata)).test).toEqual({ success: false, message: refusedMetadata });
  const received = fake.requests.length;
  expect(received).toBeGreaterThan(0);

  expect((await allow(root, "")).body.success).toBe(true);
  const reply = await relay();
  expect(reply.status).toBe(502);
  expect((await reply.json()).error.message).toStartWith(refusedLoopback);
  expect(fake.requests.length).toBe(received);
});

test("a form upload (sent with fetch, not the upstream client) goes to a loopback channel only once root allows it", async () => {
  const { root, transcribe, channel } = await gatewayWithoutAllowance();
  await channel(fixture.fake.url, "whisper-1");
  const refused = await transcribe();
  expect(refused.status).toBe(502);
  expect((await refused.json()).error.message).toStartWith(refusedLoopback);
  expect(fixture.fake.requests).toEqual([]);
  await root.put("/api/option/", { key: "UpstreamAllowedPrivateRanges", value: "127.0.0.1" });
  expect((await transcribe()).status).toBe(200);
  expect(fixture.fake.requests.map((r) => r.path)).toEqual(["/v1/audio/transcriptions"]);
});

test("through the environment's HTTP proxy, the target's name and address are checked as far as they can be here; a name only the proxy resolves goes to it", async () => {
  const { admin, channel } = await gatewayWithoutAllowance({ HTTP_PROXY: fixture.fake.url });
  const tested = async (base: string) => (await admin.get(`/api/channel/test/${await channel(base)}`)).body;
  expect((await tested(METADATA)).message).toBe(refusedMetadata);
  expect((await tested("http://metadata.google.internal")).message).toBe(
    "upstream host metadata.google.internal is not allowed by the upstream address policy (a cloud metadata name)",
  );
  expect((await tested("http://127.0.0.1:9")).message).toBe(refusedLoopback);
  expect(fixture.fake.requests).toEqual([]);
  expect((await tested("http://upstream.invalid")).success).toBe(true);
  expect(fixture.fake.requests.map((r) => r.path)).toEqual(["/v1/chat/completions"]);
});

test("a name NO_PROXY exempts is called directly at its checked address, not through the proxy", async () => {
  const { root, admin, channel } = await gatewayWithoutAllowance({
    HTTP_PROXY: "http://127.0.0.1:9",
    NO_PROXY: "localhost",
  });
  await root.put("/api/option/", { key: "UpstreamAllowedPrivateRanges", value: "127.0.0.1/32" });
  const id = await channel(`http://localhost:${new URL(fixture.fake.url).port}`);
  expect((await admin.get(`/api/channel/fetch_models/${id}`)).body.success).toBe(true);
  expect(fixture.fake.requests.map((r) => r.path)).toEqual(["/v1/models"]);
});
