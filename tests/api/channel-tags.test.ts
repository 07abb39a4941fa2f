import { describe, expect, test } from "bun:test";
import { setChannelStatus } from "../../src/service/channels/status";
import { ChannelStatus } from "../../src/shared/channel-types";
import {
  channelRow,
  createChannel,
  expectAbilitiesInStep,
  expectRefusedUnchanged,
  useAdminServer,
} from "../support/channels";
import { expectFailure, type ApiClient, type Reply } from "../support/client";
import { DIALECTS } from "../support/databases";
import type { TestServer } from "../support/server";

const _refused = (reply: Reply, message: string) => expectFailure(reply, 200, message);

describe.each(DIALECTS)("channel tags, copy and repair on %s", (dialect) => {
  let s: TestServer;
  let admin: ApiClient;
  useAdminServer(dialect, (started) => ({ s, admin } = started));

  let run = 0;
  /** Three channels sharing a fresh tag, and one without it. */
  async function tagged(): Promise<{ tag: string; ids: number[]; other: number }> {
    const tag = `tag-${++run}-${Math.random().toString(36).slice(2, 6)}`;
    const ids = [await createChannel(s, { tag }), await createChannel(s, { tag }), await createChannel(s, { tag })];
    return { tag, ids, other: await createChannel(s) };
  }
  const rowsOf = (ids: number[]) => Promise.all(ids.map(async (id) => (await channelRow(s.ctx, id))!));

  describe("POST /api/channel/tag/disabled and /tag/enabled", () => {
    test("disable and enable every channel with the tag, abilities too; enabling clears auto-disable reasons", async () => {
      const { tag, ids, other } = await tagged();
      await setChannelStatus(s.ctx, ids[0]!, ChannelStatus.AutoDisabled, "quota exceeded");
      expect((await admin.post("/api/channel/tag/disabled", { tag })).body).toEqual({
        success: true,
        message: "",
        data: 3,
      });
      expect((await rowsOf(ids)).map((c) => c.status)).toEqual([2, 2, 2]);
      expect((await channelRow(s.ctx, other))!.status).toBe(1);
      await expectAbilitiesInStep(s.ctx);
      expect((await admin.post("/api/channel/tag/enabled", { tag })).body.data).toBe(3);
      expect((await rowsOf(ids)).map((c) => [c.status, c.other_info])).toEqual([
        [1, ""],
        [1, ""],
        [1, ""],
      ]);
      await expectAbilitiesInStep(s.ctx);
    });

    test("a blank or unknown tag is refused", async () => {
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/tag/enabled", { tag: " " }),
        "tag cannot be empty",
      );
      await expectRefusedUnchanged(s.ctx, () => admin.post("/api/channel/tag/disabled", {}), "tag cannot be empty");
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/tag/disabled", { tag: "no-such-tag" }),
        "no channel has this tag",
      );
    });
  });

  describe("PUT /api/channel/tag", () => {
    test("sets priority, weight, models, groups and model mapping on every channel with the tag", async () => {
      const { tag, ids, other } = await tagged();
      const edit = {
        tag,
        priority: 4,
        weight: 6,
        models: "t1, t2",
        groups: ["default", "team"],
        model_mapping: '{"t1":"up-t1"}',
      };
      expect((await admin.put("/api/channel/tag", edit)).body).toEqual({ success: true, message: "", data: 3 });
      for (const row of await rowsOf(ids)) {
        expect(row).toMatchObject({
          priority: 4,
          weight: 6,
          models: "t1,t2",
          group: "default,team",
          model_mapping: '{"t1":"up-t1"}',
          tag,
        });
      }
      expect((await channelRow(s.ctx, other))!.models).toBe("gpt-4o,gpt-4o-mini");
      await expectAbilitiesInStep(s.ctx);
    });

    test("blank fields stay as they are; new_tag renames; a blank new_tag dissolves the tag", async () => {
      const { tag, ids } = await tagged();
      const renamed = `${tag}-new`;
      expect(
        (
          await admin.put("/api/channel/tag", {
            tag,
            new_tag: renamed,
            models: "",
            groups: "",
            model_mapping: "",
            priority: "",
          })
        ).body.data,
      ).toBe(3);
      expect((await rowsOf(ids)).map((c) => [c.tag, c.models])).toEqual(ids.map(() => [renamed, "gpt-4o,gpt-4o-mini"]));
      expect(
        (await admin.put("/api/channel/tag", { tag: renamed, models: " , ", groups: [], weight: 2 })).body.data,
      ).toBe(3);
      expect((await rowsOf(ids)).map((c) => [c.models, c.group, c.weight])).toEqual(
        ids.map(() => ["gpt-4o,gpt-4o-mini", "default,vip", 2]),
      );
      await expectAbilitiesInStep(s.ctx);
      expect((await admin.put("/api/channel/tag", { tag: renamed, new_tag: "  " })).body.data).toBe(3);
      expect((await rowsOf(ids)).map((c) => c.tag)).toEqual(["", "", ""]);
      await expectAbilitiesInStep(s.ctx);
    });

    test("refusals: nothing changed, priority not an integer, weight negative, invalid model mapping, unknown tag", async () => {
      const { tag } = await tagged();
      const cases: [Record<string, unknown>, string][] = [
        [{ tag }, "nothing changed"],
        [{ tag, new_tag: tag, models: "" }, "nothing changed"],
        [{ tag, priority: "high" }, "priority must be an integer"],
        [{ tag, priority: 2.5 }, "priority must be an integer"],
        [{ tag, weight: -1 }, "weight must be a non-negative integer"],
        [{ tag, model_mapping: "{not json" }, "model_mapping must be valid JSON"],
        [{ tag, models: "a,a" }, "some models already exist: a"],
        [{ tag: "", priority: 1 }, "tag cannot be empty"],
        [{ tag: "no-such-tag", priority: 1 }, "no channel has this tag"],
      ];
      for (const [body, message] of cases)
        await expectRefusedUnchanged(s.ctx, () => admin.put("/api/channel/tag", body), message);
    });
  });

  describe("POST /api/channel/batch/tag", () => {
    test("puts the tag on the selected channels, abilities too", async () => {
      const a = await createChannel(s);
      const b = await createChannel(s);
      const tag = `batch-${Math.random().toString(36).slice(2, 6)}`;
      expect((await admin.post("/api/channel/batch/tag", { ids: [a, b, 999999], tag })).body.data).toBe(2);
      expect((await rowsOf([a, b])).map((c) => c.tag)).toEqual([tag, tag]);
      await expectAbilitiesInStep(s.ctx);
    });

    test("needs a selection and a non-empty tag", async () => {
      const a = await createChannel(s);
      const none = () => admin.post("/api/channel/batch/tag", { ids: [], tag: "x" });
      await expectRefusedUnchanged(s.ctx, none, "please select channels to set a tag for first");
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/batch/tag", { ids: [a], tag: "" }),
        "tag cannot be empty",
      );
      await expectRefusedUnchanged(
        s.ctx,
        () => admin.post("/api/channel/batch/tag", { ids: [a] }),
        "tag cannot be empty",
      );
    });
  });

  describe("POST /api/channel/copy/{id}", () => {
    test("a copy has a new id, the name plus '_copy', the same key and fields, and no balance or used quota", async () => {
      const id = await createChannel(s, { name: "orig", tag: "copied", priority: 2, model_mapping: '{"a":"b"}' });
      await s.ctx.db.k
        .updateTable("channels")
        .set({ balance: 12.5, used_quota: 900, response_time: 300 })
        .where("id", "=", id)
        .execute();
      const reply = await admin.post(`/api/channel/copy/${id}`);
      const copied = { name: "orig_copy", tag: "copied", priority: 2, balance: 0, used_quota: 0, response_time: 0 };
      expect(reply.body).toMatchObject({ success: true, data: copied });
      expect(reply.body.data.id).not.toBe(id);
      const [source, copy] = await rowsOf([id, reply.body.data.id]);
      expect(copy!.key).toBe(source!.key);
      expect(copy!.model_mapping).toBe(source!.model_mapping);
      await expectAbilitiesInStep(s.ctx);
    });

    test("suffix and reset_balance=false are honoured; a missing channel is refused", async () => {
      const id = await createChannel(s, { name: "orig2" });
      await s.ctx.db.k.updateTable("channels").set({ balance: 3, used_quota: 10 }).where("id", "=", id).execute();
      const reply = await admin.post(`/api/channel/copy/${id}?suffix=-b&reset_balance=false`);
      expect(reply.body.data).toMatchObject({ name: "orig2-b", balance: 3, used_quota: 10 });
      await expectRefusedUnchanged(s.ctx, () => admin.post("/api/channel/copy/999999"), "channel not found");
    });
  });

  describe("POST /api/channel/fix", () => {
    test("rebuilds every ability from the channels after they were corrupted", async () => {
      const id = await createChannel(s, { models: "f1,f2" });
      const other = await createChannel(s, { status: 2 });
      await s.ctx.db.k.deleteFrom("abilities").where("channel_id", "=", id).where("model", "=", "f1").execute();
      await s.ctx.db.k
        .updateTable("abilities")
        .set({ enabled: 1, priority: 77 })
        .where("channel_id", "=", other)
        .execute();
      await s.ctx.db.k
        .insertInto("abilities")
        .values({ group: "ghost", model: "ghost", channel_id: 999999, enabled: 1, priority: 0, weight: 0, tag: "" })
        .execute();
      const channels = (await s.ctx.db.k.selectFrom("channels").select("id").execute()).length;
      const reply = await admin.post("/api/channel/fix");
      expect(reply.body.success).toBe(true);
      expect(reply.body.data.channels).toBe(channels);
      await expectAbilitiesInStep(s.ctx);
      const abilities = (await s.ctx.db.k.selectFrom("abilities").select("model").execute()).length;
      expect(reply.body.data.abilities).toBe(abilities);
    });
  });
});
