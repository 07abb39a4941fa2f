import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { DIALECTS } from "../support/databases";
import { FAKE_LEAKED_KEY } from "../support/fake-upstream";
import { failure, startRelayEnv, type RelayEnv } from "./support";

const chat = (client: OpenAI, model = "test-chat") =>
  client.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });

describe.each(DIALECTS)("relay refusals on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect, { MAX_REQUEST_BODY_MB: "1" });
    await r.setPrices({ "test-chat": 1, "no-channel-model": 1, "fake-error-429": 1, "fake-error-500-leak": 1 });
    await r.addChannel({ models: "test-chat,fake-error-429,fake-error-500-leak" });
  });
  afterAll(() => r.stop());

  describe("401 for a bad, disabled, expired or exhausted key", () => {
    test("unknown key", async () => {
      const error = await failure(chat(r.openai(`sk-${"x".repeat(48)}`)));
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error.message).toContain("invalid API key");
    });
    test("no key", async () => {
      const response = await fetch(`${r.s.url}/v1/chat/completions`, { method: "POST", body: "{}" });
      expect(response.status).toBe(401);
      expect((await response.json()).error).toMatchObject({ code: "invalid_api_key" });
    });
    test("disabled key", async () => {
      const { key, id } = await r.newKey();
      await r.user.put("/api/token/?status_only=true", { id, status: 2 });
      expect(await failure(chat(r.openai(key)))).toBeInstanceOf(OpenAI.AuthenticationError);
    });
    test("expired key", async () => {
      const { key, id } = await r.newKey();
      await r.s.ctx.db.k.updateTable("tokens").set({ expired_time: 1000 }).where("id", "=", id).execute();
      r.s.ctx.changes.emit("tokens", id);
      const error = await failure(chat(r.openai(key)));
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error.message).toContain("expired");
    });
    test("exhausted key", async () => {
      const { key, id } = await r.newKey();
      await r.s.ctx.db.k.updateTable("tokens").set({ remain_quota: 0 }).where("id", "=", id).execute();
      r.s.ctx.changes.emit("tokens", id);
      const error = await failure(chat(r.openai(key)));
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error.message).toContain("exhausted");
    });
  });

  describe("403 for IP, ban, group, model and quota", () => {
    test("an IP outside allow_ips", async () => {
      const { key } = await r.newKey({ allow_ips: "10.1.2.0/24" });
      const error = await failure(chat(r.openai(key)));
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error.message).toContain("IP address is not allowed");
      const { key: loopback } = await r.newKey({ allow_ips: "127.0.0.0/8" });
      expect((await chat(r.openai(loopback))).choices).toHaveLength(1);
    });
    test("a banned user", async () => {
      const banned = await r.s.newUser();
      await r.s.root.put("/api/user/", { id: banned.userId, quota: 1_000_000 });
      const { key } = await r.newKey({}, banned);
      await r.s.root.post("/api/user/manage", { id: banned.userId, action: "disable" });
      const error = await failure(chat(r.openai(key)));
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error.message).toContain("banned");
    });
    test("a token group the user may no longer use", async () => {
      const { key, id } = await r.newKey({ group: "vip" });
      await r.s.ctx.db.k.updateTable("tokens").set({ group: "svip" }).where("id", "=", id).execute();
      r.s.ctx.changes.emit("tokens", id);
      const error = await failure(chat(r.openai(key)));
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error.message).toContain("group svip");
    });
    test("a model the token does not allow", async () => {
      const { key } = await r.newKey({ model_limits_enabled: true, model_limits: "other-model" });
      const error = await failure(chat(r.openai(key)));
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error.message).toContain("no access to model test-chat");
    });
    test("a token quota that cannot cover the reservation", async () => {
      const { key } = await r.newKey({ remain_quota: 1 });
      const error = await failure(chat(r.openai(key)));
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error.code).toBe("pre_consume_token_quota_failed");
    });
    test("a user balance that cannot cover the reservation", async () => {
      const poor = await r.s.newUser();
      const { key } = await r.newKey({ unlimited_quota: true }, poor);
      const error = await failure(chat(r.openai(key)));
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error.code).toBe("insufficient_user_quota");
    });
  });

  describe("400 for malformed bodies and unpriced models, never 500", () => {
    test("malformed JSON", async () => {
      const response = await fetch(`${r.s.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
        body: "{not json",
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toContain("not valid JSON");
    });
    test("missing model", async () => {
      const error = await failure(r.openai().chat.completions.create({ messages: [] } as any));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.message).toContain("model is required");
    });
    test("a model without a price is refused, not billed as 0", async () => {
      await r.addChannel({ models: "unpriced-model" });
      const error = await failure(chat(r.openai(), "unpriced-model"));
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.code).toBe("model_price_error");
    });
  });

  test("503 when no channel serves the model in the group", async () => {
    const error = await failure(chat(r.openai(), "no-channel-model"));
    expect(error.status).toBe(503);
    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain("no available channel for model no-channel-model in group default");
  });

  test("a model nobody serves and nobody priced is 503 (no channel), the first thing wrong with it", async () => {
    const error = await failure(chat(r.openai(), "unknown-unpriced-model"));
    expect(error.status).toBe(503);
    expect(error.code).toBe("model_not_found");
  });

  test("502 with the reason when the upstream's reply cannot be read (not HTTP/1.x, an unknown content coding)", async () => {
    const answers: Record<string, string> = {
      "garbled-model": "HTTP/9 what\r\n\r\n",
      "zstd-model":
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: zstd\r\ncontent-length: 2\r\n\r\n{}",
    };
    const raw = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket, data) {
          const model = Object.keys(answers).find((name) => data.toString().includes(name));
          if (model) socket.write(answers[model]!);
        },
      },
    });
    try {
      await r.setPrices({ "garbled-model": 1, "zstd-model": 1 });
      await r.addChannel({ models: "garbled-model,zstd-model", base_url: `http://127.0.0.1:${raw.port}` });
      const garbled = await failure(chat(r.openai(), "garbled-model"));
      expect(garbled.status).toBe(502);
      expect(garbled.message).toContain("the upstream's reply could not be read: the upstream's reply is not HTTP/1.x");
      const zstd = await failure(chat(r.openai(), "zstd-model"));
      expect(zstd.status).toBe(502);
      expect(zstd.message).toContain("unsupported content coding (zstd)");
    } finally {
      raw.stop(true);
    }
  });

  test("413 for a body over the limit", async () => {
    const big = JSON.stringify({ model: "test-chat", messages: [{ role: "user", content: "x".repeat(1_100_000) }] });
    const response = await fetch(`${r.s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
      body: big,
    });
    expect(response.status).toBe(413);
  });

  test("429 from the upstream surfaces as RateLimitError with Retry-After", async () => {
    const error = await failure(chat(r.openai(), "fake-error-429"));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number(error.headers?.get("retry-after"))).toBeGreaterThan(0);
  });

  test("upstream error text is passed on without the upstream's URL or key", async () => {
    const error = await failure(chat(r.openai(), "fake-error-500-leak"));
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error.message).not.toContain(r.fake.url);
    expect(error.message).not.toContain("127.0.0.1");
    expect(error.message).not.toContain(FAKE_LEAKED_KEY);
    expect(error.message).not.toContain("sk-upstream-key");
  });

  test("with ErrorLogEnabled a failed call leaves an error log row (type 5), masked", async () => {
    await r.s.ctx.options.set("ErrorLogEnabled", true);
    await failure(chat(r.openai(), "fake-error-500-leak"));
    await r.s.ctx.options.set("ErrorLogEnabled", false);
    await r.flushed();
    const row = await r.s.ctx.db.k
      .selectFrom("logs")
      .selectAll()
      .where("type", "=", 5)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ model_name: "fake-error-500-leak", user_id: r.user.userId, quota: 0 });
    expect(row.content).toStartWith("status_code=500");
    expect(row.content).not.toContain(FAKE_LEAKED_KEY);
  });

  test("a failed call costs nothing and leaves no consume log", async () => {
    const before = await r.userRow();
    const logs = (await r.consumeLogs()).length;
    await failure(chat(r.openai(), "fake-error-500-leak"));
    expect((await r.userRow()).quota).toBe(before.quota);
    expect((await r.consumeLogs()).length).toBe(logs);
  });
});
