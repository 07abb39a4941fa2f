import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CallCharge, type ChargedCall } from "../../src/service/billing/call-charge";
import type { ServiceContext } from "../../src/service/context";
import { countPartsOffThread } from "../../src/service/billing/estimate";
import { ENDPOINTS, promptParts } from "../../src/service/relay/endpoints";
import type { RelayError } from "../../src/service/relay/errors";
import { newToken, newUser } from "../support/balance-rows";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases";
import { openTestContext } from "../support/server";

const chat = ENDPOINTS["/v1/chat/completions"]!;
/** Words that are new to the encoder's cache: counting this many takes several slices of a few milliseconds. */
const longPrompt = (words: number) => Array.from({ length: words }, (_, i) => `w${(i * 7919) % 100_003}`).join(" ");

let names = 0;
async function newCaller(ctx: ServiceContext, quota: number, tokenRemain?: number): Promise<ChargedCall["caller"]> {
  const userId = await newUser(ctx, quota);
  const user = await ctx.db.k.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  if (tokenRemain === undefined) return { user, token: null, group: "default" };
  const { id } = await newToken(ctx, userId, tokenRemain);
  const token = await ctx.db.k.selectFrom("tokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  return { user, token, group: "default" };
}

function callOf(
  ctx: ServiceContext,
  caller: ChargedCall["caller"],
  model: string,
  body: Record<string, unknown>,
): ChargedCall {
  const json = { model, ...body };
  return {
    ctx,
    caller,
    endpoint: chat,
    req: { model, stream: false, raw: JSON.stringify(json), json },
    requestId: `req-${++names}`,
    ip: "127.0.0.1",
    startedAt: Date.now(),
    channelsTried: [],
  };
}

const hello = { messages: [{ role: "user", content: "hi" }] };
const refusal = (error: unknown) => ({ status: (error as RelayError).status, code: (error as RelayError).code });

describe.each(DIALECTS)("the charge of one relayed call on %s", (dialect) => {
  let database: TestDatabase;
  let ctx: ServiceContext;
  const available = (userId: number) => ctx.relay.book.availableOf(userId);
  async function lastLog(userId: number) {
    await ctx.relay.book.flush();
    return ctx.db.k
      .selectFrom("logs")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    ctx = await openTestContext(database, { BILLING_FLUSH_MS: "3600000" });
    await ctx.options.set("ModelRatio", JSON.stringify({ "tok-model": 2 }));
    await ctx.options.set("CompletionRatio", JSON.stringify({ "tok-model": 3 }));
    await ctx.options.set("ModelPrice", JSON.stringify({ "call-model": 0.01 }));
    await ctx.options.set("GroupRatio", JSON.stringify({ default: 1, cheap: 0.5, dear: 4 }));
    await ctx.options.set("PreConsumedQuota", "1000");
  });
  afterAll(async () => {
    await ctx.close();
    await database.drop();
  });

  test("a small prompt is held at PreConsumedQuota tokens priced in the first route group; release gives it all back", async () => {
    const caller = await newCaller(ctx, 100_000);
    const charge = await CallCharge.open(callOf(ctx, caller, "tok-model", hello), "dear");
    // 1000 tokens × model 2 × group 4.
    expect(await available(caller.user.id)).toBe(100_000 - 8_000);
    charge.release();
    expect(charge.settled).toBe(false);
    expect(await available(caller.user.id)).toBe(100_000);
  });

  test("the hold adds the completion budget (max_tokens) priced like the bill", async () => {
    const caller = await newCaller(ctx, 100_000);
    const charge = await CallCharge.open(callOf(ctx, caller, "tok-model", { ...hello, max_tokens: 100 }), "default");
    // (1000 + 100 × completion 3) × model 2.
    expect(await available(caller.user.id)).toBe(100_000 - 2_600);
    charge.release();
  });

  test("settle bills the exact cost of the reported usage at the price of the group whose channel answered, with its log row and rollup", async () => {
    const caller = await newCaller(ctx, 100_000);
    const call = callOf(ctx, caller, "tok-model", hello);
    call.channelsTried.push(3, 7);
    const charge = await CallCharge.open(call, "dear");
    charge.answeredBy(7, "cheap", "upstream-tok");
    expect(charge.settled).toBe(false);
    charge.settle({ promptTokens: 100, completionTokens: 50, cachedTokens: 0 }, "", 42);
    expect(charge.settled).toBe(true);
    // (100 + 50 × 3) × model 2 × group 0.5 (cheap, not the first route group's 4).
    expect(await available(caller.user.id)).toBe(100_000 - 250);
    const log = await lastLog(caller.user.id);
    expect(log).toMatchObject({
      quota: 250,
      prompt_tokens: 100,
      completion_tokens: 50,
      channel_id: 7,
      group: "cheap",
      model_name: "tok-model",
      request_id: call.requestId,
      content: "",
    });
    const other = JSON.parse(log.other!);
    expect(other).toMatchObject({
      frt: 42,
      model_ratio: 2,
      completion_ratio: 3,
      group_ratio: 0.5,
      upstream_model_name: "upstream-tok",
      is_model_mapped: true,
      usage_source: "upstream",
    });
    expect(other.admin_info.use_channel).toEqual([3, 7]);
    const row = await ctx.db.k
      .selectFrom("users")
      .select("quota")
      .where("id", "=", caller.user.id)
      .executeTakeFirstOrThrow();
    expect(row.quota).toBe(100_000 - 250);
    await ctx.relay.rollup.flush();
    const rolled = await ctx.db.k
      .selectFrom("quota_data")
      .select(["quota", "token_used", "count"])
      .where("user_id", "=", caller.user.id)
      .executeTakeFirstOrThrow();
    expect(rolled).toMatchObject({ quota: 250, token_used: 150, count: 1 });
  });

  test("a channel of the first route group bills that group's price", async () => {
    const caller = await newCaller(ctx, 100_000);
    const charge = await CallCharge.open(callOf(ctx, caller, "tok-model", hello), "dear");
    charge.answeredBy(1, "dear", "tok-model");
    charge.settle({ promptTokens: 100, completionTokens: 50, cachedTokens: 0 }, "", 5);
    expect((await lastLog(caller.user.id)).quota).toBe(2_000);
  });

  test("without reported usage, settle bills the counted prompt and text and says so in the log", async () => {
    const caller = await newCaller(ctx, 100_000);
    const charge = await CallCharge.open(callOf(ctx, caller, "tok-model", hello), "default");
    charge.answeredBy(1, "default", "tok-model");
    const counted = charge.countedUsage("hello there");
    expect(counted.promptTokens).toBeGreaterThan(0);
    expect(counted.completionTokens).toBeGreaterThan(0);
    charge.settle(undefined, "hello there", 5, "eof");
    const log = await lastLog(caller.user.id);
    expect(log).toMatchObject({ prompt_tokens: counted.promptTokens, completion_tokens: counted.completionTokens });
    expect(log.quota).toBe((counted.promptTokens + counted.completionTokens * 3) * 2);
    expect(log.content).toContain("counted by the gateway");
    expect(JSON.parse(log.other!)).toMatchObject({
      usage_source: "estimated",
      stream_status: { status: "ok", end_reason: "eof" },
    });
  });

  test("a whole reply without usage is counted on the counting thread, exactly past the budget of a count on the call's turn", async () => {
    const caller = await newCaller(ctx, 100_000_000);
    const charge = await CallCharge.open(callOf(ctx, caller, "tok-model", hello), "default");
    charge.answeredBy(1, "default", "tok-model");
    const text = longPrompt(12_000);
    expect(text.length).toBeGreaterThan(64 * 1024);
    await charge.settleWhole(undefined, text, 5);
    const log = await lastLog(caller.user.id);
    expect({ prompt: log.prompt_tokens, completion: log.completion_tokens }).toEqual({
      prompt: await countPartsOffThread("tok-model", promptParts("chat", hello)),
      completion: await countPartsOffThread("tok-model", { texts: [text], fixed: 0 }),
    });
    expect(JSON.parse(log.other!)).toMatchObject({ usage_source: "estimated" });
  });

  test("a prompt counted at the hold is billed at that count when the upstream reports no usage, once answered", async () => {
    const caller = await newCaller(ctx, 1_000_000);
    const body = { messages: [{ role: "user", content: longPrompt(600) }] };
    const charge = await CallCharge.open(callOf(ctx, caller, "tok-model", body), "default");
    const held = 1_000_000 - (await available(caller.user.id));
    charge.answeredBy(1, "default", "tok-model");
    const counted = charge.countedUsage("");
    expect(counted.promptTokens).toBe(held / 2);
    expect(counted.promptTokens).toBeGreaterThan(600);
    charge.settle(undefined, "", 5, "eof");
    expect((await lastLog(caller.user.id)).prompt_tokens).toBe(counted.promptTokens);
  });

  test("once a channel answered, the charge holds neither the request nor its dialect body, and still logs the call", async () => {
    const caller = await newCaller(ctx, 1_000_000);
    const { charge, request, dialectBody } = await (async () => {
      const body = { messages: [{ role: "user", content: longPrompt(600) }] };
      const call = callOf(ctx, caller, "tok-model", body);
      const inbound = { dialect: { name: "anthropic" }, body: { ...body } };
      call.req = { ...call.req, stream: true, inbound };
      call.userAgent = "claude-cli/2.0";
      call.channelsTried.push(4);
      const charge = await CallCharge.open(call, "default");
      call.multiKeyIndex = 2;
      charge.answeredBy(4, "default", "tok-model", "openai");
      return { charge, request: new WeakRef(call.req), dialectBody: new WeakRef(inbound.body) };
    })();
    await Bun.sleep(0);
    Bun.gc(true);
    expect(request.deref()).toBeUndefined();
    expect(dialectBody.deref()).toBeUndefined();
    charge.settle({ promptTokens: 10, completionTokens: 5, cachedTokens: 0 }, "", 5, "done");
    const log = await lastLog(caller.user.id);
    expect(log).toMatchObject({ channel_id: 4, model_name: "tok-model", is_stream: 1 });
    const other = JSON.parse(log.other!);
    expect(other).toMatchObject({ inbound: "anthropic", family: "openai", client_type: "claude-code" });
    expect(other.admin_info).toEqual({ use_channel: [4], is_multi_key: true, multi_key_index: 2 });
  });

  test("a stream's small prompt is kept as its parts once answered, not as its parsed body, and counted at settle without usage", async () => {
    const caller = await newCaller(ctx, 1_000_000);
    const conversation = {
      messages: [
        { role: "system", content: "answer in one line" },
        { role: "user", content: "what is a gateway?" },
      ],
    };
    const { charge, body } = await (async () => {
      const call = callOf(ctx, caller, "tok-model", structuredClone(conversation));
      call.req = { ...call.req, stream: true };
      const charge = await CallCharge.open(call, "default");
      charge.answeredBy(1, "default", "tok-model");
      return { charge, body: new WeakRef(call.req.json!) };
    })();
    await Bun.sleep(0);
    Bun.gc(true);
    expect(body.deref()).toBeUndefined();
    const counted = charge.countedUsage("a relay");
    expect(counted.promptTokens).toBe(await countPartsOffThread("tok-model", promptParts("chat", conversation)));
    charge.settle(undefined, "a relay", 5, "eof");
    expect((await lastLog(caller.user.id)).prompt_tokens).toBe(counted.promptTokens);
  });

  test("a per-call price holds and bills once per requested choice (n), and only once settled", async () => {
    const caller = await newCaller(ctx, 100_000);
    const charge = await CallCharge.open(callOf(ctx, caller, "call-model", { ...hello, n: 3 }), "default");
    // 0.01 USD × 500 000 per USD × 3.
    expect(await available(caller.user.id)).toBe(100_000 - 15_000);
    charge.answeredBy(1, "default", "call-model");
    charge.settle({ promptTokens: 10, completionTokens: 10, cachedTokens: 0 }, "", 5);
    charge.settle({ promptTokens: 10, completionTokens: 10, cachedTokens: 0 }, "", 5);
    charge.release();
    expect(await available(caller.user.id)).toBe(100_000 - 15_000);
    expect((await lastLog(caller.user.id)).quota).toBe(15_000);
    const one = await CallCharge.open(callOf(ctx, caller, "call-model", hello), "default");
    expect(await available(caller.user.id)).toBe(100_000 - 20_000);
    one.release();
  });

  test("a token price ignores n", async () => {
    const caller = await newCaller(ctx, 100_000);
    const charge = await CallCharge.open(callOf(ctx, caller, "tok-model", { ...hello, n: 3 }), "default");
    expect(await available(caller.user.id)).toBe(100_000 - 2_000);
    charge.release();
  });

  test("an unpriced model is refused with 400 model_price_error and holds nothing", async () => {
    const caller = await newCaller(ctx, 100_000);
    const opened = Promise.resolve().then(() =>
      CallCharge.open(callOf(ctx, caller, "nobody-priced-this", hello), "default"),
    );
    expect(refusal(await opened.catch((e) => e))).toEqual({ status: 400, code: "model_price_error" });
    expect(await available(caller.user.id)).toBe(100_000);
  });

  test("a caller who cannot cover the hold is refused with 403: the user's balance, then the key's", async () => {
    const poor = await newCaller(ctx, 1_999);
    const byUser = Promise.resolve().then(() => CallCharge.open(callOf(ctx, poor, "tok-model", hello), "default"));
    expect(refusal(await byUser.catch((e) => e))).toEqual({ status: 403, code: "insufficient_user_quota" });
    const poorKey = await newCaller(ctx, 100_000, 1_999);
    const byKey = Promise.resolve().then(() => CallCharge.open(callOf(ctx, poorKey, "tok-model", hello), "default"));
    expect(refusal(await byKey.catch((e) => e))).toEqual({ status: 403, code: "pre_consume_token_quota_failed" });
    expect(await available(poorKey.user.id)).toBe(100_000);
  });

  test("a long prompt whose UTF-8 size the balance covers is held at that size at once, uncounted", async () => {
    const caller = await newCaller(ctx, 10_000_000);
    // Loaded and leased first, so the hold happens at once.
    ctx.relay.book.release(await ctx.relay.book.reserve(caller.user.id, null, 1));
    const body = { messages: [{ role: "user", content: `${longPrompt(40_000)} é` }] };
    const opened = CallCharge.open(callOf(ctx, caller, "tok-model", body), "default");
    expect(opened).toBeInstanceOf(CallCharge);
    const parts = promptParts("chat", body);
    const bytes = parts.fixed + Buffer.byteLength(parts.texts.join(""));
    expect(await available(caller.user.id)).toBe(10_000_000 - bytes * 2);
    const charge = opened as CallCharge;
    expect(charge.estimatedTokens).toBe(bytes);
    charge.answeredBy(1, "default", "tok-model");
    charge.settle({ promptTokens: 9_000, completionTokens: 10, cachedTokens: 0 }, "", 5);
    expect(await available(caller.user.id)).toBe(10_000_000 - (9_000 + 10 * 3) * 2);
  });

  test("a long prompt held uncounted is billed at its count when the reply has no usage, streamed or not", async () => {
    const caller = await newCaller(ctx, 10_000_000);
    ctx.relay.book.release(await ctx.relay.book.reserve(caller.user.id, null, 1));
    const body = { messages: [{ role: "user", content: longPrompt(3_000) }] };
    const tokens = await countPartsOffThread("tok-model", promptParts("chat", body));
    for (const stream of [false, true]) {
      const call = callOf(ctx, caller, "tok-model", body);
      call.req = { ...call.req, stream };
      const charge = CallCharge.open(call, "default") as CallCharge;
      charge.answeredBy(1, "default", "tok-model");
      // A stream's prompt is counted on the counting thread meanwhile; the count below comes after it.
      if (stream) await countPartsOffThread("tok-model", promptParts("chat", body));
      if (stream) charge.settle(undefined, "", 5, "eof");
      else await charge.settleWhole(undefined, "", 5);
      expect({ stream, prompt: (await lastLog(caller.user.id)).prompt_tokens }).toEqual({ stream, prompt: tokens });
    }
  });

  test("a long prompt whose UTF-8 size the balance does not cover is held at the floor, counted, then held at its count", async () => {
    const caller = await newCaller(ctx, 300_000);
    ctx.relay.book.release(await ctx.relay.book.reserve(caller.user.id, null, 1));
    const body = { messages: [{ role: "user", content: longPrompt(40_000) }] };
    const opening = CallCharge.open(callOf(ctx, caller, "tok-model", body), "default");
    expect(opening).toBeInstanceOf(Promise);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await available(caller.user.id)).toBe(300_000 - 2_000);
    const charge = await opening;
    const tokens = await countPartsOffThread("tok-model", promptParts("chat", body));
    expect(tokens).toBeGreaterThan(40_000);
    expect(await available(caller.user.id)).toBe(300_000 - tokens * 2);
    charge.release();
    expect(await available(caller.user.id)).toBe(300_000);
  });

  test("a caller under a token-rate limit has a long prompt counted, however large the balance (the limit reads the hold)", async () => {
    const limited = await newCaller(ctx, 10_000_000);
    limited.user = { ...limited.user, tpm_limit: 1_000_000 };
    ctx.relay.book.release(await ctx.relay.book.reserve(limited.user.id, null, 1));
    const body = { messages: [{ role: "user", content: longPrompt(40_000) }] };
    const opening = CallCharge.open(callOf(ctx, limited, "tok-model", body), "default");
    expect(opening).toBeInstanceOf(Promise);
    const charge = await opening;
    const tokens = await countPartsOffThread("tok-model", promptParts("chat", body));
    expect(charge.estimatedTokens).toBe(tokens);
    expect(await available(limited.user.id)).toBe(10_000_000 - tokens * 2);
    charge.release();
  });

  test("a caller with 0 quota and a long prompt is refused before the prompt is counted", async () => {
    const broke = await newCaller(ctx, 0);
    await available(broke.user.id);
    let turns = 0;
    const tick = setInterval(() => turns++, 0);
    const opening = CallCharge.open(
      callOf(ctx, broke, "tok-model", { messages: [{ role: "user", content: longPrompt(40_000) }] }),
      "default",
    );
    const outcome = await Promise.resolve(opening).catch((e) => e);
    clearInterval(tick);
    expect(refusal(outcome)).toEqual({ status: 403, code: "insufficient_user_quota" });
    // Counting lets other work in every few milliseconds; the refusal came before any of it.
    expect(turns).toBe(0);
  });
});
