import { beforeAll, describe, expect, test } from "bun:test";
import { setChannelStatus } from "../../src/service/channels/status";
import { REENTER_KEY } from "../../src/service/channels/update";
import { ChannelStatus } from "../../src/shared/channel-types";
import {
  channelBody,
  channelRow,
  createChannel,
  expectAbilitiesInStep,
  useAdminServer,
  snapshotChannels,
  expectRefusedUnchanged,
} from "../support/channels";
import { expectFailure, type ApiClient, type Reply } from "../support/client";
import { DIALECTS } from "../support/databases";
import { countRows } from "../support/rows";
import type { TestServer } from "../support/server";

const INSUFFICIENT = "Unauthorized, insufficient privileges";
const BAD_STATUS_MAPPING = "status_code_mapping must map HTTP statuses (100-599) to HTTP statuses";
const refused = (reply: Reply, message: string) => expectFailure(reply, 200, message);

describe.each(DIALECTS)("channel management on %s", (dialect) => {
  let s: TestServer;
  let admin: ApiClient;
  useAdminServer(dialect, (started) => ({ s, admin } = started));

  describe("every route needs an administrator", () => {
    test("an ordinary user gets 'Unauthorized, insufficient privileges' on every route and nothing changes", async () => {
      const id = await createChannel(s, { tag: "guarded" });
      const user = await s.newUser();
      const calls = [
        user.get("/api/channel/"),
        user.get("/api/channel/search?keyword=main"),
        user.get(`/api/channel/${id}`),
        user.post("/api/channel/", channelBody()),
        user.put("/api/channel/", { id, status: 2 }),
        user.delete(`/api/channel/${id}`),
        user.delete("/api/channel/disabled"),
        user.post("/api/channel/batch", { ids: [id] }),
        user.post("/api/channel/fix"),
        user.post("/api/channel/tag/enabled", { tag: "guarded" }),
        user.post("/api/channel/tag/disabled", { tag: "guarded" }),
        user.put("/api/channel/tag", { tag: "guarded", priority: 9 }),
        user.post("/api/channel/batch/tag", { ids: [id], tag: "x" }),
        user.post(`/api/channel/copy/${id}`),
        user.get("/api/channel/models"),
        user.get("/api/models"),
        user.get(`/api/channel/fetch_models/${id}`),
        user.post("/api/channel/fetch_models", { type: 1, key: "k", base_url: "http://127.0.0.1:9" }),
        user.get(`/api/channel/update_balance/${id}`),
        user.get("/api/channel/update_balance"),
        user.post(`/api/channel/${id}/key`),
      ];
      const before = await snapshotChannels(s.ctx);
      for (const reply of await Promise.all(calls)) refused(reply, INSUFFICIENT);
      expect(await snapshotChannels(s.ctx)).toEqual(before);
    });

    test("without a session the routes answer 401", async () => {
      const reply = await s.client().get("/api/channel/");
      expect(reply.status).toBe(401);
      expect(reply.body.success).toBe(false);
    });
  });

  describe("POST /api/channel/ creates channels", () => {
    test("a plain channel object is created with its abilities; the reply has no key; server-kept fields are ignored", async () => {
      const kept = { id: 4242, balance: 99, used_quota: 5, other_info: "x", response_time: 7, created_time: 1 };
      const body = channelBody({
        name: "plain",
        priority: 3,
        weight: 2,
        tag: "tg",
        base_url: "https://up.example.com/",
        ...kept,
      });
      const reply = await admin.post("/api/channel/", body);
      expect(reply.body).toMatchObject({
        success: true,
        data: { name: "plain", type: 1, status: 1, priority: 3, weight: 2 },
      });
      expect(reply.body.data).toMatchObject({ balance: 0, used_quota: 0, other_info: "", response_time: 0 });
      expect(reply.body.data.id).not.toBe(4242);
      const view = reply.body.data;
      expect(view).not.toHaveProperty("key");
      expect(view.base_url).toBe("https://up.example.com");
      const row = await channelRow(s.ctx, view.id);
      expect(row).toMatchObject({ key: body.key, models: "gpt-4o,gpt-4o-mini", group: "default,vip", tag: "tg" });
      expect(row!.created_time).toBeGreaterThan(1_000_000_000);
      await expectAbilitiesInStep(s.ctx);
    });

    test("{mode: 'single', channel} creates one channel; lists are trimmed; `groups` (an array) stands in for `group`", async () => {
      const channel = channelBody({
        name: " single ",
        models: " a , b ,, c ",
        group: undefined,
        groups: ["default", " svip "],
      });
      const reply = await admin.post("/api/channel/", { mode: "single", channel });
      expect(reply.body.data).toMatchObject({ name: "single", models: "a,b,c", group: "default,svip" });
      await expectAbilitiesInStep(s.ctx);
    });

    test("{mode: 'batch'} creates one channel per non-empty key line, names suffixed ' #n'", async () => {
      const reply = await admin.post("/api/channel/", {
        mode: "batch",
        channel: channelBody({ name: "bulk", key: "kb-1\n\n  kb-2 \nkb-3\n" }),
      });
      expect(reply.body.success).toBe(true);
      const views = reply.body.data as { id: number; name: string }[];
      expect(views.map((v) => v.name)).toEqual(["bulk #1", "bulk #2", "bulk #3"]);
      const keys = await Promise.all(views.map(async (v) => (await channelRow(s.ctx, v.id))!.key));
      expect(keys).toEqual(["kb-1", "kb-2", "kb-3"]);
      expect(JSON.stringify(reply.body)).not.toContain("kb-");
      await expectAbilitiesInStep(s.ctx);
    });

    test("a batch of one key keeps the name", async () => {
      const reply = await admin.post("/api/channel/", {
        mode: "batch",
        channel: channelBody({ name: "lone", key: "\nk-lone\n" }),
      });
      expect(reply.body.data.map((v: { name: string }) => v.name)).toEqual(["lone"]);
    });

    test("a model mapping chain (a→b→c), a self mapping and integer status replacements are accepted", async () => {
      const fields = {
        model_mapping: '{"a":"b","b":"c","d":"d"}',
        status_code_mapping: '{"400": 500, "429": "503"}',
        setting: '{"proxy":""}',
      };
      const reply = await admin.post("/api/channel/", channelBody(fields));
      expect(reply.body.data).toMatchObject(fields);
    });

    const refusals: [string, Record<string, unknown>, string][] = [
      ["type missing", { type: undefined }, "type is required"],
      ["type unknown", { type: 999 }, "type must be a known channel type"],
      ["type 0 (unknown)", { type: 0 }, "type must be a known channel type"],
      ["type not a number", { type: "openai" }, "type must be an integer"],
      ["name blank", { name: "  " }, "name is required"],
      ["name too long", { name: "n".repeat(129) }, "name must be at most 128 characters"],
      ["key missing", { key: undefined }, "key is required"],
      ["models empty", { models: " , " }, "models are required"],
      ["groups missing", { group: undefined }, "groups are required"],
      ["a model twice", { models: "a,b, a" }, "some models already exist: a"],
      ["a group twice", { group: "default, default" }, "group names must be unique: default"],
      ["models not a list", { models: 5 }, "models must be a comma-separated string or an array of strings"],
      ["model mapping not JSON", { model_mapping: "{bad" }, "model_mapping must be valid JSON"],
      ["model mapping an array", { model_mapping: "[1]" }, "model_mapping must be a JSON object"],
      ["model mapping to a number", { model_mapping: '{"a": 1}' }, "model_mapping must map model names to model names"],
      [
        "model mapping cycle a→b→a",
        { model_mapping: '{"a":"b","b":"a"}' },
        "model_mapping contains a cycle starting at a",
      ],
      ["status code mapping not JSON", { status_code_mapping: "x" }, "status_code_mapping must be valid JSON"],
      ["status code mapping to a word", { status_code_mapping: '{"400":"oops"}' }, BAD_STATUS_MAPPING],
      ["status code mapping from 99", { status_code_mapping: '{"99":"500"}' }, BAD_STATUS_MAPPING],
      ["setting an array", { setting: "[]" }, "setting must be a JSON object"],
      ["priority below -999", { priority: -1000 }, "priority must be at least -999"],
      ["priority a fraction", { priority: 1.5 }, "priority must be an integer"],
      ["weight negative", { weight: -1 }, "weight must be a non-negative integer"],
      ["weight a word", { weight: "heavy" }, "weight must be a non-negative integer"],
      ["base URL not http", { base_url: "ftp://files.example.com" }, "base_url must be an http:// or https:// address"],
      ["status auto-disabled", { status: 3 }, "status must be 1 (enabled) or 2 (disabled)"],
      ["tag too long", { tag: "t".repeat(65) }, "tag must be at most 64 characters"],
    ];
    for (const [what, fields, message] of refusals) {
      test(`${what}: refused with '${message}', nothing stored`, async () => {
        await expectRefusedUnchanged(s.ctx, () => admin.post("/api/channel/", channelBody(fields)), message);
        await expectRefusedUnchanged(
          s.ctx,
          () => admin.post("/api/channel/", { mode: "batch", channel: channelBody(fields) }),
          message,
        );
      });
    }

    test("a batch repeating a key line, or an unknown mode, is refused and nothing is stored", async () => {
      const repeated = { mode: "batch", channel: channelBody({ key: "k-a\nk-b\nk-a" }) };
      await expectRefusedUnchanged(s.ctx, () => admin.post("/api/channel/", repeated), "key line 3 repeats key line 1");
      const unknown = { mode: "sideways", channel: channelBody() };
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/", unknown),
        "mode must be single, batch or multi_to_single",
      );
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/", { mode: "single", channel: "x" }),
        "channel must be an object",
      );
    });
  });

  describe("GET /api/channel/ and /api/channel/search", () => {
    const run = Math.random().toString(36).slice(2, 8);
    const model = `lst-${run}`;
    const tag = `lst-tag-${run}`;
    /** Five channels, oldest first, of priorities 5, 1, 5, 0, 3; the first two share a tag. */
    let ids: [number, number, number, number, number];
    beforeAll(async () => {
      const created: number[] = [];
      for (const [i, priority] of [5, 1, 5, 0, 3].entries()) {
        created.push(
          await createChannel(s, { name: `list-${run}-${i}`, models: model, priority, tag: i < 2 ? tag : "" }),
        );
      }
      ids = created as typeof ids;
    });
    const search = async (query: string) => (await admin.get(`/api/channel/search?model=${model}&${query}`)).body.data;
    const idsOf = (items: { id: number }[]) => items.map((c) => c.id);

    test("id_sort pages newest first with {items, page, page_size, total}", async () => {
      const [c0, _c1, _c2, c3, c4] = ids;
      const first = await search("id_sort=true&p=1&page_size=2");
      expect({ ...first, items: idsOf(first.items) }).toEqual({ items: [c4, c3], page: 1, page_size: 2, total: 5 });
      expect(idsOf((await search("id_sort=true&p=3&page_size=2")).items)).toEqual([c0]);
    });

    test("without id_sort: highest priority first, then newest", async () => {
      const [c0, c1, c2, c3, c4] = ids;
      expect(idsOf((await search("")).items)).toEqual([c2, c0, c4, c1, c3]);
    });

    test("tag_mode: one row per tag with its channels, one row per untagged channel", async () => {
      const [c0, c1, c2, c3, c4] = ids;
      const rows = (data: { items: { tag: string; channels: { id: number }[] }[] }) =>
        data.items.map((r) => ({ tag: r.tag, ids: idsOf(r.channels) }));
      const byPriority = await search("tag_mode=true");
      expect(byPriority.total).toBe(4);
      expect(rows(byPriority)).toEqual([
        { tag: "", ids: [c2] },
        { tag, ids: [c0, c1] },
        { tag: "", ids: [c4] },
        { tag: "", ids: [c3] },
      ]);
      const byId = await search("tag_mode=true&id_sort=true&page_size=3");
      expect({ total: byId.total, rows: rows(byId) }).toEqual({
        total: 4,
        rows: [
          { tag: "", ids: [c4] },
          { tag: "", ids: [c3] },
          { tag: "", ids: [c2] },
        ],
      });
      expect(rows(await search("tag_mode=true&id_sort=true&page_size=3&p=2"))).toEqual([{ tag, ids: [c1, c0] }]);
    });

    test("the plain list counts every channel and sorts by priority, then newest", async () => {
      const reply = await admin.get("/api/channel/?p=1&page_size=100");
      const all = await s.ctx.db.k.selectFrom("channels").select(["id", "priority"]).execute();
      expect(reply.body.data.total).toBe(all.length);
      const expected = all
        .sort((a, b) => b.priority - a.priority || b.id - a.id)
        .slice(0, 100)
        .map((c) => c.id);
      expect(idsOf(reply.body.data.items)).toEqual(expected);
      expect((await admin.get("/api/channel/?page_size=1000")).body.data.page_size).toBe(100);
    });

    test("keyword matches the id, a part of the name or tag, and only the whole key", async () => {
      const key = `sk-search-${run}-abcdef`;
      const id = await createChannel(s, { name: `findme-${run}`, key, tag: `tg-${run}` });
      const found = async (keyword: string) =>
        idsOf((await admin.get(`/api/channel/search?keyword=${encodeURIComponent(keyword)}`)).body.data.items);
      expect(await found(String(id))).toContain(id);
      expect(await found(`findme-${run}`.slice(2))).toEqual([id]);
      expect(await found(`tg-${run}`)).toEqual([id]);
      expect(await found(key)).toEqual([id]);
      expect(await found(key.slice(0, -1))).toEqual([]);
      expect(await found("%")).not.toContain(id);
    });

    test("group filters by a group the channel serves", async () => {
      const id = await createChannel(s, { group: `default,g-${run}` });
      expect(idsOf((await admin.get(`/api/channel/search?group=g-${run}`)).body.data.items)).toEqual([id]);
      expect(idsOf((await admin.get(`/api/channel/search?group=g-${run}x`)).body.data.items)).toEqual([]);
    });
  });

  describe("keys are secrets", () => {
    test("get, list, search and tag mode never show the key", async () => {
      const body = channelBody({ tag: "secret-tag" });
      const id = (await admin.post("/api/channel/", body)).body.data.id;
      const replies = [
        await admin.get(`/api/channel/${id}`),
        await admin.get("/api/channel/?page_size=100"),
        await admin.get("/api/channel/?page_size=100&tag_mode=true"),
        await admin.get(`/api/channel/search?keyword=${id}`),
      ];
      expect(replies[0]!.body.data).toMatchObject({ id, name: body.name });
      for (const reply of replies) {
        expect(reply.body.success).toBe(true);
        expect(JSON.stringify(reply.body)).not.toContain(body.key);
        expect(JSON.stringify(reply.body)).not.toContain('"key"');
      }
    });

    test("POST /api/channel/{id}/key reveals the key to root only", async () => {
      const body = channelBody();
      const id = (await admin.post("/api/channel/", body)).body.data.id;
      expect((await s.root.post(`/api/channel/${id}/key`)).body).toEqual({
        success: true,
        message: "",
        data: { key: body.key },
      });
      refused(await admin.post(`/api/channel/${id}/key`), INSUFFICIENT);
      refused(await s.root.post("/api/channel/999999/key"), "channel not found");
    });

    test("GET of a missing channel or a bad id is refused clearly", async () => {
      refused(await admin.get("/api/channel/999999"), "channel not found");
      refused(await admin.get("/api/channel/abc"), "id must be a positive integer");
    });
  });

  describe("PUT /api/channel/ updates", () => {
    test("a full update changes the fields, keeps the key when it is blank, and keeps abilities in step", async () => {
      const body = channelBody({ tag: "before" });
      const id = (await admin.post("/api/channel/", body)).body.data.id;
      const edit = {
        id,
        type: 8,
        name: "renamed",
        key: "",
        models: "m1,m2,m3",
        group: "svip",
        priority: -5,
        weight: 9,
        tag: "after",
      };
      const reply = await admin.put("/api/channel/", {
        ...edit,
        base_url: "https://custom.example.com",
        key: "sk-new",
      });
      expect(reply.body).toMatchObject({
        success: true,
        data: { name: "renamed", type: 8, status: 1, group: "svip", priority: -5 },
      });
      await admin.put("/api/channel/", { id, key: "   ", remark: "kept" });
      expect(await channelRow(s.ctx, id)).toMatchObject({
        key: "sk-new",
        name: "renamed",
        models: "m1,m2,m3",
        remark: "kept",
        tag: "after",
      });
      await expectAbilitiesInStep(s.ctx);
    });

    test("{id, status} alone disables and enables; the reply carries the status", async () => {
      const id = await createChannel(s);
      expect((await admin.put("/api/channel/", { id, status: 2 })).body.data.status).toBe(2);
      await expectAbilitiesInStep(s.ctx);
      expect((await admin.put("/api/channel/", { id, status: 1 })).body.data.status).toBe(1);
      await expectAbilitiesInStep(s.ctx);
    });

    test("{id, priority} and {id, weight} alone change only that, abilities too", async () => {
      const id = await createChannel(s, { priority: 1, weight: 1 });
      expect((await admin.put("/api/channel/", { id, priority: "7" })).body.data).toMatchObject({
        priority: 7,
        weight: 1,
      });
      expect((await admin.put("/api/channel/", { id, weight: 0 })).body.data).toMatchObject({ priority: 7, weight: 0 });
      await expectAbilitiesInStep(s.ctx);
    });

    test("an auto-disabled channel shows why; enabling it clears the reason; saving it as is keeps it disabled", async () => {
      const id = await createChannel(s);
      expect(await setChannelStatus(s.ctx, id, ChannelStatus.AutoDisabled, "upstream said 401")).toBe(true);
      const view = (await admin.get(`/api/channel/${id}`)).body.data;
      expect(view.status).toBe(3);
      expect(JSON.parse(view.other_info)).toMatchObject({
        status_reason: "upstream said 401",
        status_time: expect.any(Number),
      });
      await expectAbilitiesInStep(s.ctx);
      expect((await admin.put("/api/channel/", { ...view, name: "still off" })).body.data).toMatchObject({
        status: 3,
        name: "still off",
      });
      expect((await admin.put("/api/channel/", { id, status: 1 })).body.data).toMatchObject({
        status: 1,
        other_info: "",
      });
      await expectAbilitiesInStep(s.ctx);
      expect(await setChannelStatus(s.ctx, 999999, ChannelStatus.AutoDisabled, "gone")).toBe(false);
    });

    test("invalid edits are refused and change nothing", async () => {
      const id = await createChannel(s);
      const cases: [Record<string, unknown>, string][] = [
        [{ id, weight: -1 }, "weight must be a non-negative integer"],
        [{ id, priority: -1000 }, "priority must be at least -999"],
        [{ id, name: "" }, "name is required"],
        [{ id, models: "" }, "models are required"],
        [{ id, status: 3 }, "status must be 1 (enabled) or 2 (disabled)"],
        [{ id, model_mapping: '{"x":"y","y":"x"}' }, "model_mapping contains a cycle starting at x"],
        [{ id: 999999, name: "x" }, "channel not found"],
        [{ name: "x" }, "id must be a positive integer"],
      ];
      for (const [body, message] of cases)
        await expectRefusedUnchanged(s.ctx, () => admin.put("/api/channel/", body), message);
    });

    test("an admin must re-enter the key to change where it is sent; root need not", async () => {
      const id = await createChannel(s, { base_url: "https://one.example.com" });
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.put("/api/channel/", { id, base_url: "https://attacker.example.com" }),
        REENTER_KEY,
      );
      await expectRefusedUnchanged(s.ctx, () => admin.put("/api/channel/", { id, base_url: "", key: "" }), REENTER_KEY);
      expect(
        (await admin.put("/api/channel/", { id, base_url: "https://two.example.com", key: "sk-two" })).body.success,
      ).toBe(true);
      expect((await s.root.put("/api/channel/", { id, base_url: "https://three.example.com" })).body.success).toBe(
        true,
      );
      expect(await channelRow(s.ctx, id)).toMatchObject({ base_url: "https://three.example.com", key: "sk-two" });
    });
  });

  describe("deleting", () => {
    test("DELETE /api/channel/{id} removes the channel and its abilities", async () => {
      const id = await createChannel(s);
      expect((await admin.delete(`/api/channel/${id}/`)).body.success).toBe(true);
      expect(await channelRow(s.ctx, id)).toBeUndefined();
      await expectAbilitiesInStep(s.ctx);
      refused(await admin.delete(`/api/channel/${id}`), "channel not found");
    });

    test("DELETE /api/channel/disabled removes manually and automatically disabled channels and answers the count", async () => {
      const off = await createChannel(s, { status: 2 });
      const auto = await createChannel(s);
      const on = await createChannel(s);
      await setChannelStatus(s.ctx, auto, ChannelStatus.AutoDisabled, "too slow");
      const disabled = await s.ctx.db.k.selectFrom("channels").select("id").where("status", "in", [2, 3]).execute();
      expect(disabled.length).toBeGreaterThanOrEqual(2);
      expect((await admin.delete("/api/channel/disabled")).body).toEqual({
        success: true,
        message: "",
        data: disabled.length,
      });
      expect(await channelRow(s.ctx, off)).toBeUndefined();
      expect(await channelRow(s.ctx, auto)).toBeUndefined();
      expect(await channelRow(s.ctx, on)).toBeDefined();
      await expectAbilitiesInStep(s.ctx);
      expect((await admin.delete("/api/channel/disabled")).body.data).toBe(0);
    });

    test("POST /api/channel/batch deletes the listed channels, passing over unknown ids", async () => {
      const a = await createChannel(s);
      const b = await createChannel(s);
      const keep = await createChannel(s);
      expect((await admin.post("/api/channel/batch", { ids: [a, b, a, 999999] })).body.data).toBe(2);
      expect(await channelRow(s.ctx, a)).toBeUndefined();
      expect(await channelRow(s.ctx, keep)).toBeDefined();
      await expectAbilitiesInStep(s.ctx);
    });

    test("a batch delete without a selection is refused", async () => {
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/batch", { ids: [] }),
        "please select channels to delete first",
      );
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/batch", {}),
        "please select channels to delete first",
      );
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/batch", { ids: ["x"] }),
        "id must be a positive integer",
      );
    });
  });

  test("every committed change is announced on the change bus", async () => {
    let heard = 0;
    const off = s.ctx.changes.on("channels", () => heard++);
    const id = await createChannel(s, { tag: "bus" });
    await admin.put("/api/channel/", { id, priority: 2 });
    await admin.put("/api/channel/tag", { tag: "bus", weight: 4 });
    await admin.post(`/api/channel/copy/${id}`);
    await admin.post("/api/channel/fix");
    await admin.delete(`/api/channel/${id}`);
    await admin.put("/api/channel/", { id: 999999, priority: 1 });
    off();
    expect(heard).toBe(6);
    expect(await countRows(s.ctx, "channels")).toBeGreaterThan(0);
  });
});
