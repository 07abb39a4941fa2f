import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keysOf } from "../../src/service/channels/multi-key";
import { DIALECTS } from "../support/databases";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { failure, startRelayEnv, type RelayEnv } from "./support";

test("keys are read one per line or from a JSON array (an object item is one key, as JSON)", () => {
  expect(keysOf(" a \n\n b\n")).toEqual(["a", "b"]);
  expect(keysOf('["a", {"type":"service_account"}]')).toEqual(["a", '{"type":"service_account"}']);
});

describe.each(DIALECTS)("multi-key channels on %s", (dialect) => {
  let r: RelayEnv;
  let upstream: FakeUpstream;
  const channelRow = (id: number) =>
    r.s.ctx.db.k.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const manage = (body: Record<string, unknown>) => r.s.root.post("/api/channel/multi_key/manage", body);
  const create = async (model: string, key: unknown, mode = "polling") => {
    const reply = await r.s.root.post("/api/channel/", {
      mode: "multi_to_single",
      multi_key_mode: mode,
      channel: { type: 1, name: `mk-${model}`, key, base_url: upstream.url, models: model, group: "default" },
    });
    expect(reply.body.success).toBe(true);
    await r.s.ctx.relay.routes.rebuild();
    return reply.body.data.id as number;
  };
  const ask = (model: string) =>
    r.openai().chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] });

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    upstream = startFakeUpstream({ apiKey: "sk-good-key" });
    await r.setPrices({ "mk-a": 1, "mk-b": 1, "mk-c": 1 });
    await r.s.ctx.options.set("AutomaticDisableChannelEnabled", true);
  });
  afterAll(async () => {
    await r.stop();
    await upstream.stop();
  });

  test("multi_to_single: one channel, keys used in turn (polling); a failing key is disabled on its own, the channel stays enabled; the log names the key's index", async () => {
    const id = await create("mk-a", "sk-bad-one\nsk-good-key\nsk-bad-two");
    expect(
      (await r.s.ctx.db.k.selectFrom("channels").select("id").where("name", "=", "mk-mk-a").execute()).length,
    ).toBe(1);
    const replies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const reply = await ask("mk-a").then(
        () => "ok",
        (error) => JSON.stringify({ status: error.status, message: error.message }),
      );
      replies.push(reply);
      await r.s.ctx.relay.routes.rebuild();
    }
    expect(replies.filter((x) => x === "ok")).toHaveLength(1);
    for (const reply of replies) expect(reply).not.toContain("sk-bad");
    const row = await channelRow(id);
    expect(row.status).toBe(1);
    const info = JSON.parse(row.channel_info);
    expect(info.multi_key_status_list).toEqual({ "0": 3, "2": 3 });
    expect(info.multi_key_disabled_reason["0"]).toContain("401");
    for (let i = 0; i < 3; i++) await ask("mk-a");
    const logs = await r.consumeLogs();
    expect(JSON.parse(logs.at(-1).other).admin_info).toEqual({
      use_channel: [id],
      is_multi_key: true,
      multi_key_index: 1,
    });
  });

  test("a channel whose every key fails becomes status 3 'All keys are disabled'; then no channel serves the model; no key in any reply", async () => {
    const id = await create("mk-b", '["sk-bad-one","sk-bad-two"]', "random");
    for (let i = 0; i < 2; i++) {
      const error = await failure(ask("mk-b"));
      expect(error.message).not.toContain("sk-bad");
      await r.s.ctx.relay.routes.rebuild();
    }
    const row = await channelRow(id);
    expect(row.status).toBe(3);
    expect(JSON.parse(row.other_info).status_reason).toBe("All keys are disabled");
    expect((await failure(ask("mk-b"))).status).toBe(503);

    const status = await manage({ channel_id: id, action: "get_key_status" });
    expect(status.body.data).toMatchObject({ total: 2, enabled: 0, mode: "random" });
    expect(JSON.stringify(status.body)).not.toContain("sk-bad");
    const enabled = await manage({ channel_id: id, action: "enable_key", key_index: 1 });
    expect(enabled.body.data.enabled).toBe(1);
    expect((await channelRow(id)).status).toBe(1);
  });

  test("an admin enables and disables keys one by one or all at once; bad input is refused and changes nothing", async () => {
    const id = await create("mk-c", "sk-good-key\nsk-good-key-2");
    const disabled = await manage({ channel_id: id, action: "disable_key", key_index: 0 });
    expect(disabled.body.data.keys.map((k: any) => k.status)).toEqual([2, 1]);
    expect((await manage({ channel_id: id, action: "disable_all_keys" })).body.data.enabled).toBe(0);
    expect((await channelRow(id)).status).toBe(3);
    expect((await manage({ channel_id: id, action: "enable_all_keys" })).body.data.enabled).toBe(2);
    expect((await channelRow(id)).status).toBe(1);
    const before = (await channelRow(id)).channel_info;
    for (const [body, message] of [
      [{ channel_id: id, action: "enable_key", key_index: 2 }, "key_index must be from 0 to 1"],
      [{ channel_id: id, action: "explode" }, "action must be one of"],
      [{ channel_id: 999999, action: "get_key_status" }, "channel not found"],
    ] as const) {
      const reply = await manage(body);
      expect(reply.body.success).toBe(false);
      expect(reply.body.message).toContain(message);
    }
    const single = await r.addChannel({ models: "mk-single" });
    expect((await manage({ channel_id: single, action: "get_key_status" })).body.message).toBe(
      "the channel is not a multi-key channel",
    );
    expect((await channelRow(id)).channel_info).toBe(before);
    const badMode = await r.s.root.post("/api/channel/", {
      mode: "multi_to_single",
      multi_key_mode: "sometimes",
      channel: { type: 1, name: "x", key: "a\nb", base_url: upstream.url, models: "m", group: "default" },
    });
    expect(badMode.body).toEqual({ success: false, message: "multi_key_mode must be random or polling" });
  });
});
