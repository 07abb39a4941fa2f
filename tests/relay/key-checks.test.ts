import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, TOKEN_QUOTA, type RelayEnv } from "./support";

const PAGE = "https://checker.example.com";

describe.each(DIALECTS)("read-only key calls (compat §2.3) on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect, { KEY_CHECK_RATE_LIMIT: "12/600" });
    await r.setPrices({ "check-model": 1 });
    await r.addChannel({ models: "check-model" });
  });
  afterAll(() => r.stop());

  const get = (path: string, authorization?: string) =>
    fetch(`${r.s.url}${path}`, { headers: { origin: PAGE, ...(authorization ? { authorization } : {}) } });

  test("GET /api/usage/token tells a key's granted, used and available quota, to any origin", async () => {
    const { key } = await r.newKey({ name: "checked", model_limits_enabled: true, model_limits: "check-model" });
    await r.openai(key).chat.completions.create({ model: "check-model", messages: [{ role: "user", content: "hi" }] });
    const reply = await get("/api/usage/token", `Bearer ${key}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("access-control-allow-origin")).toBe("*");
    const body = await reply.json();
    expect(body.code).toBe(true);
    expect(body.message).toBe("ok");
    expect(body.data.object).toBe("token_usage");
    expect(body.data.name).toBe("checked");
    expect(body.data.total_used).toBeGreaterThan(0);
    expect(body.data.total_granted).toBe(TOKEN_QUOTA);
    expect(body.data.total_available).toBe(TOKEN_QUOTA - body.data.total_used);
    expect(body.data.model_limits).toEqual({ "check-model": true });
    expect(body.data.model_limits_enabled).toBe(true);
    expect(body.data.unlimited_quota).toBe(false);
    expect(body.data.expires_at).toBe(0);
  });

  test("GET /api/log/token lists the key's own rows without channel details", async () => {
    const { key, id } = await r.newKey({ name: "logged" });
    await r.openai(key).chat.completions.create({ model: "check-model", messages: [{ role: "user", content: "hi" }] });
    const reply = await get("/api/log/token", `Bearer ${key}`);
    const body = await reply.json();
    expect(body.success).toBe(true);
    expect(body.data.length).toBe(1);
    expect(body.data[0].token_id).toBe(id);
    expect(body.data[0].model_name).toBe("check-model");
    expect(JSON.stringify(body.data)).not.toContain("sk-upstream-key");
  });

  test("the key must exist, whatever its status; a missing header is 401 'Token not provided'", async () => {
    const { key, id } = await r.newKey({ name: "disabled-later" });
    await r.user.put("/api/token/?status_only=true", { id, status: 2 });
    expect((await get("/api/usage/token", `Bearer ${key}`)).status).toBe(200);
    const missing = await get("/api/usage/token");
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ success: false, message: "Token not provided" });
    const unknown = await get("/api/log/token", `Bearer sk-${"x".repeat(48)}`);
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).success).toBe(false);
  });

  test("a banned user's key is refused with 403", async () => {
    const other = await r.s.newUser();
    const { key } = await r.newKey({ name: "banned" }, other);
    await r.s.root.post("/api/user/manage", { id: other.userId, action: "disable" });
    const reply = await get("/api/usage/token", `Bearer ${key}`);
    expect(reply.status).toBe(403);
  });

  test("the calls share the critical per-address limit: beyond it, 429", async () => {
    let last = 200;
    for (let i = 0; i < 14 && last !== 429; i++) last = (await get("/api/usage/token", `Bearer ${r.key}`)).status;
    expect(last).toBe(429);
  });
});
