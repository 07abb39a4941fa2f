import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, type RelayEnv } from "../relay/support";

const GROUP_RATIO = { default: 1, vip: 1.5, svip: 2 };
const USABLE = { default: "Default group", vip: "VIP group" };

describe.each(DIALECTS)("GET /api/pricing on %s", (dialect) => {
  let r: RelayEnv;
  const setOption = (key: string, value: unknown) =>
    r.s.root.put("/api/option/", { key, value: JSON.stringify(value) });
  const pricingOf = async (client = r.s.client()) => {
    const reply = await client.get("/api/pricing");
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
    return reply.body;
  };
  const rowOf = async (model: string) => (await pricingOf()).data.find((row: any) => row.model_name === model);

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await setOption("GroupRatio", GROUP_RATIO);
    await setOption("UserUsableGroups", USABLE);
    await r.setPrices({ "p-ratio": 2, "p-vip-only": 1, "p-disabled": 1 }, { "p-ratio": 3 }, { "p-call": 0.05 });
    await r.addChannel({ models: "p-ratio,p-call,p-unpriced", group: "default,vip" });
    await r.addChannel({ models: "p-vip-only", group: "vip" });
    const disabled = await r.addChannel({ models: "p-disabled", group: "default" });
    await r.s.root.put("/api/channel/", { id: disabled, status: 2 });
    await r.s.ctx.relay.routes.rebuild();
  });
  afterAll(() => r.stop());

  test("a visitor gets the reply: data rows plus group_ratio and usable_group beside data", async () => {
    const body = await pricingOf();
    expect(Object.keys(body).sort()).toEqual(["data", "group_ratio", "message", "success", "usable_group"]);
    for (const row of body.data) {
      expect(Object.keys(row).sort()).toEqual([
        "completion_ratio",
        "enable_groups",
        "model_name",
        "model_price",
        "model_ratio",
        "quota_type",
      ]);
    }
  });

  test("rows only for models some enabled channel serves and billing can price, each with its factors and groups", async () => {
    expect((await pricingOf()).data).toEqual([
      {
        model_name: "p-call",
        quota_type: 1,
        model_ratio: 0,
        completion_ratio: 0,
        model_price: 0.05,
        enable_groups: ["default", "vip"],
      },
      {
        model_name: "p-ratio",
        quota_type: 0,
        model_ratio: 2,
        completion_ratio: 3,
        model_price: 0,
        enable_groups: ["default", "vip"],
      },
      {
        model_name: "p-vip-only",
        quota_type: 0,
        model_ratio: 1,
        completion_ratio: 1,
        model_price: 0,
        enable_groups: ["vip"],
      },
    ]);
  });

  test("a served model without a price is left out (billing refuses it too)", async () => {
    expect(await rowOf("p-unpriced")).toBeUndefined();
    const refused = await r
      .openai()
      .chat.completions.create({ model: "p-unpriced", messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(refused.status).toBe(400);
    expect(refused.code).toBe("model_price_error");
  });

  test("the same source as billing: a price change shows at once, and a call is billed by the listed factors", async () => {
    await r.setPrices({ "p-ratio": 4 }, { "p-ratio": 2 });
    expect(await rowOf("p-ratio")).toMatchObject({ quota_type: 0, model_ratio: 4, completion_ratio: 2 });
    await r.openai().chat.completions.create({ model: "p-ratio", messages: [{ role: "user", content: "hi" }] });
    const log = (await r.consumeLogs()).at(-1);
    const other = JSON.parse(log.other);
    expect({ model_ratio: other.model_ratio, completion_ratio: other.completion_ratio }).toEqual({
      model_ratio: 4,
      completion_ratio: 2,
    });
    expect(log.quota).toBe(4 * (log.prompt_tokens + 2 * log.completion_tokens));
  });

  test("a model price overrides its ratio: the row turns per call", async () => {
    await r.setPrices({}, {}, { "p-ratio": 0.2 });
    expect(await rowOf("p-ratio")).toMatchObject({ quota_type: 1, model_price: 0.2, model_ratio: 0 });
    const prices = { ...r.s.ctx.options.json<Record<string, number>>("ModelPrice") };
    delete prices["p-ratio"];
    await setOption("ModelPrice", prices);
    expect((await rowOf("p-ratio")).quota_type).toBe(0);
  });

  test("a disabled channel's models disappear; enabling it brings them back", async () => {
    expect(await rowOf("p-disabled")).toBeUndefined();
    const channel = await r.s.ctx.db.k
      .selectFrom("channels")
      .select("id")
      .where("models", "=", "p-disabled")
      .executeTakeFirstOrThrow();
    await r.s.root.put("/api/channel/", { id: channel.id, status: 1 });
    await r.s.ctx.relay.routes.rebuild();
    expect((await rowOf("p-disabled")).enable_groups).toEqual(["default"]);
  });

  test("a visitor sees GroupRatio and the default usable groups with their ratios", async () => {
    const body = await pricingOf();
    expect(body.group_ratio).toEqual(GROUP_RATIO);
    expect(body.usable_group).toEqual({
      default: { desc: "Default group", ratio: 1 },
      vip: { desc: "VIP group", ratio: 1.5 },
    });
  });

  test("a bad session counts as a visitor, not as a refusal", async () => {
    const stranger = r.s.client();
    stranger.cookie = "session=forged";
    stranger.userId = 1;
    expect((await pricingOf(stranger)).usable_group).toEqual((await pricingOf()).usable_group);
  });

  describe("a signed-in user", () => {
    test("sees their own group among the usable ones", async () => {
      const user = await r.s.newUser();
      await r.s.root.put("/api/user/", { id: user.userId, group: "svip" });
      const body = await pricingOf(user);
      expect(body.usable_group).toEqual({
        default: { desc: "Default group", ratio: 1 },
        vip: { desc: "VIP group", ratio: 1.5 },
        svip: { desc: "svip", ratio: 2 },
      });
    });

    test("sees the ratios billing charges them: GroupGroupRatio overrides GroupRatio for their group", async () => {
      const user = await r.s.newUser();
      await r.s.root.put("/api/user/", { id: user.userId, group: "svip" });
      await setOption("GroupGroupRatio", { svip: { vip: 0.8 } });
      const body = await pricingOf(user);
      expect(body.group_ratio).toEqual({ default: 1, vip: 0.8, svip: 2 });
      expect(body.usable_group.vip).toEqual({ desc: "VIP group", ratio: 0.8 });
      expect((await pricingOf()).group_ratio).toEqual(GROUP_RATIO);
      await setOption("GroupGroupRatio", {});
    });
  });

  test("groups no one can use (neither in GroupRatio nor usable) are not listed: nobody can buy through them", async () => {
    await r.setPrices({ "p-orphan": 1, "p-both": 1 });
    await r.addChannel({ models: "p-orphan,p-both", group: "nobody" });
    await r.addChannel({ models: "p-both", group: "default" });
    expect(await rowOf("p-orphan")).toBeUndefined();
    expect((await rowOf("p-both")).enable_groups).toEqual(["default"]);
  });
});
