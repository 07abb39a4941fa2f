import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { refuse } from "../../src/service/errors";
import { ALREADY_BOUND } from "../../src/service/oauth/sign-in";
import {
  TELEGRAM_EXPIRED,
  TELEGRAM_FORGED,
  TELEGRAM_FRESH_SECONDS,
  TELEGRAM_REPLAYED,
} from "../../src/service/oauth/telegram";
import { signInWithWeChat, WECHAT_CODE_WRONG } from "../../src/service/oauth/wechat";
import { expectFailure } from "../support/client";
import { DIALECTS } from "../support/databases";
import { FAKE_WECHAT_TOKEN, type FakeWeChatServer, startFakeWeChatServer } from "../support/fake-wechat-server";
import { FAKE_BOT_TOKEN, telegramPayload } from "../support/telegram-payload";
import { type TestServer, uniqueName, useTestServer } from "../support/server";

const query = (fields: Record<string, string>) => `?${new URLSearchParams(fields)}`;

async function userCount(s: TestServer): Promise<number> {
  return (await s.root.get("/api/user/?p=1&page_size=10")).body.data.total;
}

describe.each(DIALECTS)("WeChat and Telegram sign-in on %s", (dialect) => {
  const s = useTestServer(dialect);
  let wechat: FakeWeChatServer;

  beforeAll(async () => {
    wechat = startFakeWeChatServer();
    const o = s.ctx.options;
    await o.set("WeChatAuthEnabled", true);
    await o.set("WeChatServerAddress", wechat.url);
    await o.set("WeChatServerToken", FAKE_WECHAT_TOKEN);
    await o.set("TelegramOAuthEnabled", true);
    await o.set("TelegramBotToken", FAKE_BOT_TOKEN);
  });
  afterAll(() => wechat.stop());

  test("a WeChat code from the WeChat server (asked with WeChatServerToken) signs a new user in, once", async () => {
    const c = s.client();
    const code = wechat.codeFor("openid-100");
    const reply = await c.get(`/api/oauth/wechat?code=${code}`);
    expect(reply.body).toMatchObject({ success: true, message: "login succeeded" });
    c.userId = reply.body.data.id;
    expect((await c.get("/api/user/self")).body.data.wechat_id).toBe("openid-100");
    expectFailure(await s.client().get(`/api/oauth/wechat?code=${code}`), 200, WECHAT_CODE_WRONG);
  });

  test("an expired code, a wrong WeChatServerToken, a wrong WeChatServerAddress: refused, no user made", async () => {
    const before = await userCount(s);
    const late = wechat.codeFor("openid-200");
    wechat.expireCodes();
    expectFailure(await s.client().get(`/api/oauth/wechat?code=${late}`), 200, WECHAT_CODE_WRONG);
    await s.ctx.options.set("WeChatServerToken", "not-the-token");
    expectFailure(
      await s.client().get(`/api/oauth/wechat?code=${wechat.codeFor("openid-201")}`),
      200,
      "the WeChat server refused the sign-in (HTTP 401)",
    );
    await s.ctx.options.set("WeChatServerToken", FAKE_WECHAT_TOKEN);
    await s.ctx.options.set("WeChatServerAddress", "http://127.0.0.1:1");
    expectFailure(
      await s.client().get(`/api/oauth/wechat?code=${wechat.codeFor("openid-202")}`),
      200,
      "could not reach the WeChat server, please try again later",
    );
    await s.ctx.options.set("WeChatServerAddress", wechat.url);
    expect(await userCount(s)).toBe(before);
  });

  test("WeChat sign-in asks the human check first: a refusing check makes nothing", async () => {
    const before = await userCount(s);
    const humanCheck = async () => refuse("human check failed");
    await expect(signInWithWeChat(s.ctx, wechat.codeFor("openid-300"), { aff: "", humanCheck })).rejects.toThrow(
      "human check failed",
    );
    expect(await userCount(s)).toBe(before);
  });

  test("WeChat bind (GET and POST) binds the signed-in user; an account bound elsewhere is refused", async () => {
    const owner = await s.newUser(uniqueName());
    expect((await owner.get(`/api/oauth/wechat/bind?code=${wechat.codeFor("openid-400")}`)).body).toEqual({
      success: true,
      message: "bound",
      data: null,
    });
    expect((await owner.get("/api/user/self")).body.data.wechat_id).toBe("openid-400");
    const other = await s.newUser(uniqueName());
    expectFailure(await other.post(`/api/oauth/wechat/bind?code=${wechat.codeFor("openid-400")}`), 200, ALREADY_BOUND);
    expect((await other.get("/api/user/self")).body.data.wechat_id).toBe("");
    expect((await s.client().get(`/api/oauth/wechat/bind?code=${wechat.codeFor("openid-401")}`)).status).toBe(401);
  });

  test("a Telegram payload signed with TelegramBotToken signs in once; a replay is refused", async () => {
    const payload = telegramPayload({ id: "9001", first_name: "Tele" });
    const c = s.client();
    const reply = await c.get(`/api/oauth/telegram/login${query({ ...payload, lang: "en" })}`);
    expect(reply.body).toMatchObject({ success: true, message: "login succeeded" });
    c.userId = reply.body.data.id;
    expect((await c.get("/api/user/self")).body.data.telegram_id).toBe("9001");
    expectFailure(await s.client().get(`/api/oauth/telegram/login${query(payload)}`), 200, TELEGRAM_REPLAYED);
  });

  test("a forged hash, another bot's signature and a stale auth_date are refused; nothing changes", async () => {
    const before = await userCount(s);
    const genuine = telegramPayload({ id: "9100" });
    const forged = { ...genuine, id: "9101" };
    expectFailure(await s.client().get(`/api/oauth/telegram/login${query(forged)}`), 200, TELEGRAM_FORGED);
    const otherBot = telegramPayload({ id: "9102" }, "999:another-bot");
    expectFailure(await s.client().get(`/api/oauth/telegram/login${query(otherBot)}`), 200, TELEGRAM_FORGED);
    const stale = telegramPayload({
      id: "9103",
      auth_date: Math.floor(Date.now() / 1000) - TELEGRAM_FRESH_SECONDS - 5,
    });
    expectFailure(await s.client().get(`/api/oauth/telegram/login${query(stale)}`), 200, TELEGRAM_EXPIRED);
    expect(await userCount(s)).toBe(before);
    // The refusals did not use the genuine payload up.
    expect((await s.client().get(`/api/oauth/telegram/login${query(genuine)}`)).body.success).toBe(true);
  });

  test("Telegram bind binds the signed-in user; an account bound elsewhere is refused", async () => {
    const owner = await s.newUser(uniqueName());
    const bound = await owner.get(`/api/oauth/telegram/bind${query(telegramPayload({ id: "9200" }))}`);
    expect(bound.body.success).toBe(true);
    expect((await owner.get("/api/user/self")).body.data.telegram_id).toBe("9200");
    const other = await s.newUser(uniqueName());
    const refused = await other.get(
      `/api/oauth/telegram/bind${query(telegramPayload({ id: "9200", first_name: "B" }))}`,
    );
    expectFailure(refused, 200, ALREADY_BOUND);
    expect((await other.get("/api/user/self")).body.data.telegram_id).toBe("");
  });

  test("switched off, WeChat and Telegram sign-in refuse", async () => {
    await s.ctx.options.set("WeChatAuthEnabled", false);
    await s.ctx.options.set("TelegramOAuthEnabled", false);
    expectFailure(
      await s.client().get(`/api/oauth/wechat?code=${wechat.codeFor("openid-500")}`),
      200,
      "sign-in with WeChat is not enabled by the administrator",
    );
    expectFailure(
      await s.client().get(`/api/oauth/telegram/login${query(telegramPayload({ id: "9300" }))}`),
      200,
      "sign-in with Telegram is not enabled by the administrator",
    );
    await s.ctx.options.set("WeChatAuthEnabled", true);
    await s.ctx.options.set("TelegramOAuthEnabled", true);
  });
});
