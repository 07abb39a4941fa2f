import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { DEFAULT_RELAY_TIMEOUT_SECONDS, loadConfig } from "../../src/service/config";
import { DIALECTS } from "../support/databases";
import { failure, startRelayEnv, TOKEN_QUOTA, USER_QUOTA, type RelayEnv } from "./support";

test("RELAY_TIMEOUT is finite by default (a hung upstream no longer holds a call for good); 0 still means none", () => {
  expect(DEFAULT_RELAY_TIMEOUT_SECONDS).toBeGreaterThan(0);
  expect(loadConfig({}).relayTimeoutMs).toBe(DEFAULT_RELAY_TIMEOUT_SECONDS * 1000);
  expect(loadConfig({ RELAY_TIMEOUT: "0" }).relayTimeoutMs).toBe(0);
});

describe.each(DIALECTS)("upstream defaults that bite, on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect, { RELAY_TIMEOUT: "1" });
    const models = "fake-slow-3000ms,fake-drip-300ms,fake-error-401,fake-error-403";
    await r.addChannel({ models });
    await r.setPrices(Object.fromEntries(models.split(",").map((m) => [m, 1])));
  });
  afterAll(() => r.stop());

  test("an upstream that never answers is given up after RELAY_TIMEOUT with 504, and its reservation is released", async () => {
    const started = performance.now();
    const error = await failure(
      r.openai().chat.completions.create({ model: "fake-slow-3000ms", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
    expect(error.message).toContain("did not answer in time");
    expect(performance.now() - started).toBeLessThan(2900);
    expect((await r.userRow()).quota).toBe(USER_QUOTA);
    expect((await r.tokenRow()).remain_quota).toBe(TOKEN_QUOTA);
  });

  test("a stream whose head came in time is not cut by RELAY_TIMEOUT (its chunks run under the stream's idle limit)", async () => {
    const stream = await r.openai().chat.completions.create({
      model: "fake-drip-300ms",
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Hello from fake upstream");
  });

  for (const status of [401, 403]) {
    test(`an upstream ${status} reaches the client as 502 upstream_auth_error, never as its own key failing`, async () => {
      const error = await failure(
        r
          .openai()
          .chat.completions.create({ model: `fake-error-${status}`, messages: [{ role: "user", content: "hi" }] }),
      );
      expect(error).not.toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error).not.toBeInstanceOf(OpenAI.PermissionDeniedError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.status).toBe(502);
      expect(apiError.code).toBe("upstream_auth_error");
      expect(apiError.message).toContain(`refused this channel's credentials (HTTP ${status})`);
    });
  }
});
