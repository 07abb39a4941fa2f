import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TaskPoller } from "../../../src/service/tasks/poller";
import { startFakeMidjourney, FAKE_PNG, type FakeMidjourney } from "../../support/fake-midjourney";
import { DIALECTS } from "../../support/databases";
import { startRelayEnv, TOKEN_QUOTA, USER_QUOTA, type RelayEnv } from "../../relay/support";
import { call, pollerOf, refundLogs, setOptions } from "../../tasks/support";

const SECRET = "mj-upstream-secret";
/** Default ModelPrice: mj_imagine $0.1, mj_upscale $0.05, at 500000 quota per dollar. */
const IMAGINE = 50_000;
const UPSCALE = 25_000;

describe.each(DIALECTS)("Midjourney-proxy relay on %s", (dialect) => {
  let r: RelayEnv;
  let mj: FakeMidjourney;
  let poller: TaskPoller;
  let channelId: number;
  /** What the user and the token have spent so far, by what the tests expect. */
  let spent = 0;

  const imagine = (prompt: string, extra: Record<string, unknown> = {}, path = "/mj/submit/imagine") =>
    call(r, "POST", path, { prompt, ...extra });
  const fetchTask = (id: string) => call(r, "GET", `/mj/task/${id}/fetch`);
  const balances = async () => ({ user: (await r.userRow()).quota, token: (await r.tokenRow()).remain_quota });
  const expectSpent = async () =>
    expect(await balances()).toEqual({ user: USER_QUOTA - spent, token: TOKEN_QUOTA - spent });

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    mj = startFakeMidjourney(SECRET);
    channelId = await r.addChannel({
      type: 2,
      key: SECRET,
      base_url: mj.url,
      models: "mj_imagine,mj_upscale,mj_variation,mj_describe",
    });
    poller = pollerOf(r.s.ctx);
  });
  afterAll(async () => {
    await poller.stop();
    await r.stop();
    await mj.stop();
  });

  test("imagine over plain HTTP with the key in mj-api-secret: the upstream's {code: 1, result} comes back, the price is charged at submit", async () => {
    const reply = await imagine("a red fox", {}, "/mj/submit/imagine");
    const viaSecret = await call(
      r,
      "POST",
      "/mj/submit/imagine",
      { prompt: "a blue fox" },
      {
        authorization: "Bearer midjourney-proxy",
        "mj-api-secret": r.key,
        "user-agent": "curl/8.5.0",
      },
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ code: 1, description: "提交成功" });
    expect(viaSecret.status).toBe(200);
    expect(viaSecret.body.code).toBe(1);
    spent += 2 * IMAGINE;
    await expectSpent();
    const logs = (await r.consumeLogs()).filter((l) => l.model_name === "mj_imagine");
    expect(logs.map((l) => l.quota)).toEqual([IMAGINE, IMAGINE]);
    expect(JSON.parse(logs[0]!.other).task_id).toBe(reply.body.result);
    // The log row names the kind of client that submitted (detect upstream counts it).
    expect(JSON.parse(logs[1]!.other).client_type).toBe("curl");
    expect(mj.submissions.at(-1)!.path).toBe("/mj/submit/imagine");
  });

  test("the poller follows a task over several polls to SUCCESS with its image; the price stays charged once", async () => {
    const id = (await imagine("a green fox")).body.result as string;
    spent += IMAGINE;
    expect((await fetchTask(id)).body).toMatchObject({
      id,
      action: "IMAGINE",
      status: "SUBMITTED",
      prompt: "a green fox",
    });
    expect(await poller.round()).toBe(true);
    expect((await fetchTask(id)).body).toMatchObject({ status: "IN_PROGRESS", progress: "50%" });
    await poller.round();
    await poller.round();
    const done = (await fetchTask(id)).body;
    expect(done).toMatchObject({ status: "SUCCESS", progress: "100%", imageUrl: `${mj.url}/images/${id}.png` });
    expect(done.finishTime).toBe(1_700_000_090_000);
    await poller.round();
    await expectSpent();
    const row = await r.s.ctx.db.k
      .selectFrom("midjourneys")
      .selectAll()
      .where("mj_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "SUCCESS",
      channel_id: channelId,
      quota: IMAGINE,
      code: 1,
      finish_time: 1_700_000_090,
    });
  });

  test("a task that ends in FAILURE is refunded in full, exactly once, with a refund log row", async () => {
    const before = (await refundLogs(r)).length;
    const id = (await imagine("fail please")).body.result as string;
    expect(await balances()).toEqual({ user: USER_QUOTA - spent - IMAGINE, token: TOKEN_QUOTA - spent - IMAGINE });
    for (let i = 0; i < 4; i++) await poller.round();
    const task = (await fetchTask(id)).body;
    expect(task).toMatchObject({ status: "FAILURE", failReason: "Banned prompt detected" });
    await expectSpent();
    const refunds = (await refundLogs(r)).slice(before);
    expect(refunds.map((l) => l.quota)).toEqual([IMAGINE]);
    expect(refunds[0]!.content).toContain(id);
  });

  test("a task still unfinished after the timeout (TASK_TIMEOUT_MINUTES, 24 h by default) is failed and refunded", async () => {
    const id = (await imagine("never ending")).body.result as string;
    await poller.round();
    expect((await fetchTask(id)).body.status).toBe("IN_PROGRESS");
    expect(r.s.ctx.config.taskTimeoutSeconds).toBe(24 * 3600);
    const dayAgo = Math.floor(Date.now() / 1000) - 24 * 3600 - 1;
    await r.s.ctx.db.k.updateTable("midjourneys").set({ submit_time: dayAgo }).where("mj_id", "=", id).execute();
    await poller.round();
    await poller.round();
    expect((await fetchTask(id)).body).toMatchObject({ status: "FAILURE", failReason: "task timed out" });
    await expectSpent();
  });

  test("a full upstream queue is HTTP 429 with code 30 (compat §4.3), nothing charged, no task stored", async () => {
    const count = async () => (await r.s.ctx.db.k.selectFrom("midjourneys").select("id").execute()).length;
    const rows = await count();
    const reply = await imagine("queue-full");
    expect(reply.status).toBe(429);
    expect(reply.body).toMatchObject({ code: 30, type: "upstream_error" });
    expect(reply.body.description).toContain("当前分组负载已饱和");
    expect(await count()).toBe(rows);
    await expectSpent();
  });

  test("an upstream refusal (banned prompt, code 24) keeps its code in the Midjourney error shape and charges nothing", async () => {
    const reply = await imagine("banned words");
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 24, type: "upstream_error" });
    expect(reply.body.description).toContain("可能包含敏感词");
    await expectSpent();
  });

  test("bad input gets {description, type, code} and changes nothing: unknown action, missing prompt, unknown button", async () => {
    const unknown = await call(r, "POST", "/mj/submit/paint", { prompt: "x" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 4, type: "invalid_request" });
    expect(unknown.body.description).toContain("unknown action: paint");
    const noPrompt = await call(r, "POST", "/mj/submit/imagine", {});
    expect(noPrompt.status).toBe(400);
    expect(noPrompt.body.description).toContain("prompt is required");
    const button = await call(r, "POST", "/mj/submit/action", { taskId: "1", customId: "MJ::Nope::1" });
    expect(button.body.description).toContain("unknown action");
    const notJson = await fetch(`${r.s.url}/mj/submit/imagine`, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}` },
      body: "{",
    });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).code).toBe(4);
    const noKey = await call(r, "POST", "/mj/submit/imagine", { prompt: "x" }, {});
    expect(noKey.status).toBe(401);
    expect(Object.keys(noKey.body).sort()).toEqual(["code", "description", "type"]);
    await expectSpent();
  });

  test("another user's task is not visible: fetch, list-by-condition and actions on it answer not found", async () => {
    const id = (await imagine("mine only")).body.result as string;
    spent += IMAGINE;
    const other = await r.s.newUser();
    await r.s.root.put("/api/user/", { id: other.userId, quota: USER_QUOTA });
    const { key } = await r.newKey({}, other);
    const as = { authorization: `Bearer ${key}` };
    const fetched = await call(r, "GET", `/mj/task/${id}/fetch`, undefined, as);
    expect(fetched.status).toBe(404);
    expect(fetched.body).toMatchObject({ code: 3 });
    expect((await call(r, "POST", "/mj/task/list-by-condition", { ids: [id] }, as)).body).toEqual([]);
    const acted = await call(r, "POST", "/mj/submit/change", { taskId: id, action: "UPSCALE", index: 1 }, as);
    expect(acted.status).toBe(404);
    expect((await call(r, "POST", "/mj/task/list-by-condition", { ids: [id] })).body.map((t: any) => t.id)).toEqual([
      id,
    ]);
    await expectSpent();
  });

  test("a forged notify call to us is refused in the Midjourney shape and changes no task", async () => {
    const id = (await imagine("a notify target")).body.result as string;
    spent += IMAGINE;
    const forged = await call(r, "POST", "/mj/notify", { id, status: "FAILURE", failReason: "forged" }, {});
    expect(forged.status).toBe(404);
    expect(forged.body).toMatchObject({ code: 3 });
    const withKey = await call(r, "POST", "/mj/notify", { id, status: "FAILURE" });
    expect(withKey.status).toBe(404);
    const underMode = await call(r, "POST", "/fast/mj/notify", { id, status: "FAILURE" }, {});
    expect(underMode.status).toBe(404);
    expect(underMode.body).toMatchObject({ code: 3 });
    expect((await fetchTask(id)).body.status).toBe("SUBMITTED");
    await expectSpent();
  });

  test("MjActionCheckSuccessEnabled refuses actions on a task that has not succeeded; a succeeded task's action goes to its channel", async () => {
    const id = (await imagine("to be upscaled")).body.result as string;
    spent += IMAGINE;
    const early = await call(r, "POST", "/mj/submit/change", { taskId: id, action: "UPSCALE", index: 1 });
    expect(early.status).toBe(400);
    expect(early.body.description).toContain("has not succeeded");
    for (let i = 0; i < 3; i++) await poller.round();
    const action = await call(r, "POST", "/mj/submit/action", { taskId: id, customId: `MJ::JOB::upsample::1::${id}` });
    expect(action.body.code).toBe(1);
    spent += UPSCALE;
    await expectSpent();
    expect((await fetchTask(action.body.result)).body.action).toBe("UPSCALE");
    await setOptions(r, { MjActionCheckSuccessEnabled: "false" });
    const next = (await imagine("not yet done")).body.result as string;
    const allowed = await call(r, "POST", "/mj/submit/simple-change", { content: `${next} U2` });
    await setOptions(r, { MjActionCheckSuccessEnabled: "true" });
    expect(allowed.body.code).toBe(1);
    spent += IMAGINE + UPSCALE;
    await expectSpent();
  });

  test("an action whose model has no price is refused before anything is sent or charged (fail closed)", async () => {
    const sent = mj.submissions.length;
    const id = (await imagine("to vary")).body.result as string;
    spent += IMAGINE;
    for (let i = 0; i < 3; i++) await poller.round();
    const { mj_variation: _unpriced, ...prices } = r.s.ctx.options.json<Record<string, number>>("ModelPrice");
    await setOptions(r, { ModelPrice: JSON.stringify(prices) });
    const varied = await call(r, "POST", "/mj/submit/simple-change", { content: `${id} V1` });
    await setOptions(r, { ModelPrice: JSON.stringify({ ...prices, mj_variation: 0.1 }) });
    expect(varied.status).toBe(400);
    expect(varied.body).toMatchObject({ code: 4, type: "model_price_error" });
    expect(mj.submissions.length).toBe(sent + 1);
    await expectSpent();
    const priced = await call(r, "POST", "/mj/submit/simple-change", { content: `${id} V1` });
    expect(priced.body.code).toBe(1);
    spent += IMAGINE;
    await expectSpent();
  });

  test("MjModeClearEnabled strips --fast/--relax/--turbo; the mode path reaches the upstream; accountFilter passes only with MjAccountFilterEnabled", async () => {
    await setOptions(r, { MjModeClearEnabled: "true" });
    await call(r, "POST", "/fast/mj/submit/imagine", {
      prompt: "a cat --fast --v 6",
      accountFilter: { channelId: "9" },
    });
    spent += IMAGINE;
    let seen = mj.submissions.at(-1)!;
    expect(seen.path).toBe("/fast/mj/submit/imagine");
    expect(seen.body.prompt).toBe("a cat --v 6");
    expect(seen.body.accountFilter).toBeUndefined();
    await setOptions(r, { MjModeClearEnabled: "false", MjAccountFilterEnabled: "true" });
    await call(r, "POST", "/relax/mj/submit/imagine", { prompt: "a cat --relax", accountFilter: { channelId: "9" } });
    spent += IMAGINE;
    seen = mj.submissions.at(-1)!;
    expect(seen.body.prompt).toBe("a cat --relax");
    expect(seen.body.accountFilter).toEqual({ channelId: "9" });
    await setOptions(r, { MjAccountFilterEnabled: "false" });
    expect((await call(r, "POST", "/slow/mj/submit/imagine", { prompt: "x" })).status).toBe(404);
    await expectSpent();
  });

  test("MjForwardUrlEnabled: image URLs point at ServerAddress/mj/image/{id}, which serves the upstream's image", async () => {
    const id = (await imagine("a forwarded fox")).body.result as string;
    spent += IMAGINE;
    for (let i = 0; i < 3; i++) await poller.round();
    await setOptions(r, { MjForwardUrlEnabled: "true", ServerAddress: r.s.url });
    const task = (await fetchTask(id)).body;
    const listed = (await r.user.get(`/api/mj/self?mj_id=${id}`)).body.data.items;
    await setOptions(r, { MjForwardUrlEnabled: "false" });
    expect(listed.map((t: any) => t.image_url)).toEqual([`${r.s.url}/mj/image/${id}`]);
    expect((await r.user.get(`/api/mj/self?mj_id=${id}`)).body.data.items[0].image_url).toBe(
      `${mj.url}/images/${id}.png`,
    );
    expect(task.imageUrl).toBe(`${r.s.url}/mj/image/${id}`);
    const image = await fetch(task.imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(FAKE_PNG);
    expect((await call(r, "GET", "/mj/image/404404", undefined, {})).status).toBe(404);
  });

  test("MjNotifyEnabled: the client's notifyHook hears of each change; the upstream never gets the hook; off, nothing is sent", async () => {
    const heard: any[] = [];
    const hook = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (request) => {
        heard.push(await request.json());
        return new Response("ok");
      },
    });
    try {
      const notifyHook = `http://127.0.0.1:${hook.port}/hook`;
      const silent = (await imagine("quiet fox", { notifyHook })).body.result as string;
      await setOptions(r, { MjNotifyEnabled: "true" });
      const id = (await imagine("loud fox", { notifyHook })).body.result as string;
      spent += 2 * IMAGINE;
      expect(mj.submissions.at(-1)!.body.notifyHook).toBeUndefined();
      for (let i = 0; i < 3; i++) await poller.round();
      await setOptions(r, { MjNotifyEnabled: "false" });
      expect(heard.map((t) => [t.id, t.status])).toEqual([
        [id, "IN_PROGRESS"],
        [id, "SUCCESS"],
      ]);
      expect(heard.some((t) => t.id === silent)).toBe(false);
      expect((await fetchTask(id)).body.properties.notifyHook).toBeUndefined();
    } finally {
      await hook.stop(true);
    }
  });

  test("a Midjourney channel is not tested (compat §4.7) and stays enabled", async () => {
    const tested = await r.s.root.get(`/api/channel/test/${channelId}`);
    expect(tested.body).toMatchObject({ success: false, message: "Midjourney channel test is not supported" });
    const row = await r.s.ctx.db.k
      .selectFrom("channels")
      .select("status")
      .where("id", "=", channelId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(1);
  });

  test("the dashboard counts drawing spending per action model: the consume log rows less the refunds", async () => {
    await r.s.ctx.relay.rollup.flush();
    const buckets = (await r.user.get("/api/data/self")).body.data as { model_name: string; quota: number }[];
    const logs = await r.consumeLogs();
    const refunds = await r.s.ctx.db.k.selectFrom("logs").selectAll().where("type", "=", 6).execute();
    const refundedOf = (action: string) =>
      refunds.filter((l) => JSON.parse(l.other).action === action).reduce((sum, l) => sum + l.quota, 0);
    expect(refundedOf("IMAGINE")).toBeGreaterThan(0);
    // A refund row names the user and the task's model, so the log's filters find it.
    expect(refunds.find((l) => JSON.parse(l.other).action === "IMAGINE")).toMatchObject({
      username: expect.stringMatching(/./),
      model_name: "mj_imagine",
    });
    for (const [model, action] of [
      ["mj_imagine", "IMAGINE"],
      ["mj_upscale", "UPSCALE"],
    ]) {
      const counted = buckets.filter((b) => b.model_name === model).reduce((sum, b) => sum + b.quota, 0);
      const logged = logs.filter((l) => l.model_name === model).reduce((sum, l) => sum + l.quota, 0);
      expect(counted).toBeGreaterThan(0);
      expect(counted).toBe(logged - refundedOf(action!));
    }
  });

  test("image-seed asks the task's channel", async () => {
    const id = (await imagine("a seeded fox")).body.result as string;
    spent += IMAGINE;
    const seed = await call(r, "GET", `/mj/task/${id}/image-seed`);
    expect(seed.body).toMatchObject({ code: 1, result: `seed-of-${id}` });
    await expectSpent();
  });
});
