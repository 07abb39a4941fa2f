import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import type { UserRow } from "../users/directory";
import { completeSignIn, requireEnabled, type SignInOutcome } from "./sign-in";
import type { ExternalAccount } from "./providers";
import { fetchProviderJson } from "./remote";

export const WECHAT_CODE_WRONG = "the verification code is wrong or has expired";

/**
 * The WeChat server (WeChatServerAddress) trades the code its official account sent (valid 3 minutes there) for
 * the user's WeChat id: GET /api/wechat/user?code=…, `Authorization: <WeChatServerToken>`, answering
 * `{success, message, data: <id>}`.
 */
async function wechatAccount(ctx: ServiceContext, code: string): Promise<ExternalAccount> {
  const address = ctx.options.raw("WeChatServerAddress");
  const token = ctx.options.raw("WeChatServerToken");
  if (!address || !token) refuse("WeChat sign-in is not configured: the WeChat server address and token are required");
  if (!code || code.length > 64) refuse("the verification code is required");
  const reply = await fetchProviderJson(
    ctx,
    "the WeChat server",
    `${address}/api/wechat/user?code=${encodeURIComponent(code)}`,
    {
      headers: { authorization: token, accept: "application/json" },
    },
  );
  if (reply.success !== true || typeof reply.data !== "string" || !reply.data) refuse(WECHAT_CODE_WRONG);
  return { provider: "wechat", id: reply.data };
}

/** Signs in (or registers) with a WeChat code, after the human check the site asks for. */
export async function signInWithWeChat(
  ctx: ServiceContext,
  code: string,
  { aff, humanCheck }: { aff: string; humanCheck: () => Promise<void> },
): Promise<SignInOutcome> {
  requireEnabled(ctx, "wechat");
  await humanCheck();
  return completeSignIn(ctx, await wechatAccount(ctx, code), { aff });
}

/** Binds the WeChat account behind `code` to the signed-in `user`. */
export async function bindWeChat(ctx: ServiceContext, user: UserRow, code: string): Promise<void> {
  requireEnabled(ctx, "wechat");
  await completeSignIn(ctx, await wechatAccount(ctx, code), { aff: "", bindTo: user });
}
