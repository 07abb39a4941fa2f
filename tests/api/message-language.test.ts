import { describe, expect, test } from "bun:test";
import { languageOfHeader, translateMessage } from "../../src/service/i18n/translate";
import { expectFailure } from "../support/client";
import { useTestServer } from "../support/server";

/** Issue #22: the server answers the console in the user's language (Accept-Language); zh is the fallback. */
describe("management replies in the user's language", () => {
  const s = useTestServer("sqlite");
  const zh = { "accept-language": "zh" };

  test("a refusal is in Chinese for zh, in English for en, and as written without the header", async () => {
    const wrong = { username: "nobody", password: "wrong-password" };
    expectFailure(await s.client().post("/api/user/login", wrong, zh), 200, "用户名或密码错误，或用户已被封禁");
    expectFailure(
      await s.client().post("/api/user/login", wrong, { "accept-language": "en-GB,en;q=0.9" }),
      200,
      "username or password is incorrect, or the user has been banned",
    );
    expectFailure(
      await s.client().post("/api/user/login", wrong),
      200,
      "username or password is incorrect, or the user has been banned",
    );
  });

  test("messages made from templates keep their values; permission and not-found refusals too", async () => {
    const user = await s.newUser();
    expectFailure(await user.get("/api/channel/", zh), 200, "无权进行此操作，权限不足");
    expectFailure(await user.get("/api/token/987654", zh), 200, "令牌不存在");
    expectFailure(await user.post("/api/user/topup", { key: "" }, zh), 200, "请输入兑换码！");
    expectFailure(await user.post("/api/user/topup", { key: "no-such-code" }, zh), 200, "无效的兑换码");
  });

  test("a success message is translated too; an unknown language falls back to Chinese", async () => {
    const user = await s.newUser();
    const reply = await user.get("/api/user/logout", { "accept-language": "fr-FR" });
    expect(reply.body).toMatchObject({ success: true, message: "已退出登录" });
  });

  test("the log rows the server writes itself read in the user's language; stored as written", async () => {
    await s.ctx.options.set("QuotaForNewUser", 500_000);
    const user = await s.newUser();
    await s.ctx.options.set("QuotaForNewUser", 0);
    const contents = async (headers: Record<string, string>) =>
      (await user.get("/api/log/self?p=1&page_size=10", headers)).body.data.items.map(
        (row: { content: string }) => row.content,
      );
    expect(await contents(zh)).toEqual(["新用户注册赠送 $1.00"]);
    expect(await contents({ "accept-language": "en" })).toEqual(["new user registration bonus $1.00"]);
    const stored = await s.ctx.db.k.selectFrom("logs").select("content").where("user_id", "=", user.userId!).execute();
    expect(stored).toEqual([{ content: "new user registration bonus $1.00" }]);
    expect(translateMessage("redeemed $5.00 with redemption code #12", "zh")).toBe("通过兑换码 #12 兑换 $5.00");
    expect(translateMessage("administrator root changed the quota from $1.00 to $2.50", "zh")).toBe(
      "管理员 root 将额度从 $1.00 修改为 $2.50",
    );
  });

  test("the header decides: the first of zh or en it names, Chinese for others, none without it", () => {
    expect(languageOfHeader("en-US,zh;q=0.5")).toBe("en");
    expect(languageOfHeader("zh-CN")).toBe("zh");
    expect(languageOfHeader("de")).toBe("zh");
    expect(languageOfHeader(null)).toBeUndefined();
    expect(translateMessage("the top-up amount cannot be less than 5", "zh")).toBe("充值数量不能小于 5");
    expect(translateMessage("channel not found", "zh")).toBe("渠道不存在");
    expect(translateMessage("a message nobody wrote", "zh")).toBe("a message nobody wrote");
  });
});
