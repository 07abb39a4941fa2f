import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { clientTypeOf } from "../../src/service/relay/client-type";
import { expectFailure } from "../support/client";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, type RelayEnv } from "../relay/support";

const DAY = 86_400;

describe("the client type of a User-Agent", () => {
  test.each([
    ["claude-cli/1.0.72 (external, cli)", "claude-code"],
    ["codex_cli_rs/0.20.0 (Mac OS 14.5.0; arm64)", "codex"],
    ["GeminiCLI/0.1.18 (linux; x64)", "gemini-cli"],
    ["OpenAI/JS 5.12.0", "openai-sdk"],
    ["OpenAI/Python 1.99.0", "openai-sdk"],
    ["Anthropic/JS 0.60.0", "anthropic-sdk"],
    ["google-genai-sdk/1.12.0 gl-node/v22", "google-genai"],
    ["curl/8.5.0", "curl"],
    ["Mozilla/5.0 (X11; Linux x86_64)", "browser"],
    ["Bun/1.4.5", "other"],
    ["", "unknown"],
    [null, "unknown"],
  ])("%p is %p", (ua, expected) => {
    expect(clientTypeOf(ua)).toBe(expected);
  });
});

describe.each(DIALECTS)("detect upstream (GET /api/channel/test_upstream/:id) on %s", (dialect) => {
  let r: RelayEnv;
  let channelId: number;
  let otherChannel: number;

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await r.setPrices({ "gpt-test": 1 }, { "gpt-test": 1 });
    channelId = await r.addChannel({ models: "gpt-test" });
    otherChannel = await r.addChannel({ models: "other-test" });
  });
  afterAll(() => r.stop());

  test("the relay logs the caller's client type, and the route counts them per group over the last 30 days", async () => {
    await r.openai().chat.completions.create({ model: "gpt-test", messages: [{ role: "user", content: "hi" }] });
    await r.openai().chat.completions.create({ model: "gpt-test", messages: [{ role: "user", content: "hi" }] });
    const claude = new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });
    await claude.messages.create({ model: "gpt-test", max_tokens: 50, messages: [{ role: "user", content: "hi" }] });
    const cli = await fetch(`${r.s.url}/v1/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${r.key}`,
        "content-type": "application/json",
        "user-agent": "claude-cli/1.0.72 (external, cli)",
      },
      body: JSON.stringify({ model: "gpt-test", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(cli.status).toBe(200);
    await cli.text();
    const logged = (await r.consumeLogs()).map((row) => JSON.parse(row.other).client_type);
    expect(logged).toEqual(["openai-sdk", "openai-sdk", "anthropic-sdk", "claude-code"]);

    // A row of another group from before client types were logged, and one older than 30 days (not counted).
    const now = Math.floor(Date.now() / 1000);
    const base = { user_id: r.user.userId!, username: "x", type: 2, channel_id: channelId, model_name: "gpt-test" };
    await r.s.ctx.db.k
      .insertInto("logs")
      .values([
        { ...base, group: "vip", created_at: now - 2 * DAY, other: "{}" },
        { ...base, group: "default", created_at: now - 31 * DAY, other: JSON.stringify({ client_type: "curl" }) },
      ])
      .execute();

    const reply = await r.s.root.get(`/api/channel/test_upstream/${channelId}`);
    expect(reply.body.success).toBe(true);
    const groups = reply.body.data as any[];
    expect(groups.map((g) => g.group)).toEqual(["default", "vip"]);
    const [main, vip] = groups;
    expect(main.client_types.map((c: any) => [c.client_type, c.count])).toEqual([
      ["openai-sdk", 2],
      ["anthropic-sdk", 1],
      ["claude-code", 1],
    ]);
    expect(main.first_seen).toBeGreaterThanOrEqual(now - 60);
    expect(main.last_seen).toBeGreaterThanOrEqual(main.first_seen);
    for (const c of main.client_types) {
      expect(c.first_seen).toBeGreaterThanOrEqual(main.first_seen);
      expect(c.last_seen).toBeLessThanOrEqual(main.last_seen);
    }
    expect(vip).toEqual({
      group: "vip",
      first_seen: now - 2 * DAY,
      last_seen: now - 2 * DAY,
      client_types: [{ client_type: "unknown", count: 1, first_seen: now - 2 * DAY, last_seen: now - 2 * DAY }],
    });

    const quiet = await r.s.root.get(`/api/channel/test_upstream/${otherChannel}`);
    expect(quiet.body).toMatchObject({ success: true, data: [] });
  });

  test("only an administrator may ask, for a channel that exists, by a valid id", async () => {
    expectFailure(
      await r.user.get(`/api/channel/test_upstream/${channelId}`),
      200,
      "Unauthorized, insufficient privileges",
    );
    expectFailure(await r.s.root.get("/api/channel/test_upstream/999999"), 200, "channel not found");
    expectFailure(await r.s.root.get("/api/channel/test_upstream/abc"), 200, "id must be a positive integer");
  });
});
