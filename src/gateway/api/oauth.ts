import type { Server } from "bun";
import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { randomAlphanumeric } from "../../service/crypto";
import { ServiceError } from "../../service/errors";
import { CODE_FLOWS, type CodeFlowProvider, finishSignIn, startSignIn } from "../../service/oauth/code-flow";
import type { SignInOutcome } from "../../service/oauth/sign-in";
import { issueState, STATE_TTL_SECONDS } from "../../service/oauth/state";
import { bindTelegram, signInWithTelegram } from "../../service/oauth/telegram";
import { unbind } from "../../service/oauth/unbind";
import { bindWeChat, signInWithWeChat } from "../../service/oauth/wechat";
import { toLoginView } from "../../service/users/dto";
import { OAUTH_BROWSER_COOKIE, oauthBrowserCookie, readCookie, sessionCookie } from "../http/cookies";
import { ok } from "../http/envelope";
import { authenticate, type Caller } from "./auth";
import { limitPerAddress } from "./rate-limit";

/** The human check (Turnstile) a route asks for before it acts; refuses by throwing. */
export type HumanCheck = (request: Request, server: Server<unknown> | null) => Promise<void>;

type Set = { headers: Record<string, unknown> };

const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

/** The signed-in caller when there is one; an anonymous or stale one signs in instead. */
async function callerOf(ctx: ServiceContext, request: Request): Promise<Caller | undefined> {
  try {
    return await authenticate(ctx, request);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 401) return undefined;
    throw error;
  }
}

/** This browser's key for OAuth states, set as a cookie when it has none yet. */
function browserOf(request: Request, set: Set): string {
  const held = readCookie(request, OAUTH_BROWSER_COOKIE);
  if (held && /^[A-Za-z0-9]{32}$/.test(held)) return held;
  const browser = randomAlphanumeric(32);
  set.headers["set-cookie"] = oauthBrowserCookie(request, browser, STATE_TTL_SECONDS);
  return browser;
}

function reply(ctx: ServiceContext, request: Request, set: Set, outcome: SignInOutcome) {
  if (outcome.kind === "bound") return ok(null, "bound");
  set.headers["set-cookie"] = sessionCookie(request, outcome.sessionId, ctx.config.sessionTtlSeconds);
  return ok(toLoginView(outcome.user), "login succeeded");
}

/**
 * Third-party sign-in and binding (GitHub, LinuxDO, OpenID Connect, WeChat, Telegram) and unbinding.
 * `humanCheck` guards WeChat sign-in: the site's Turnstile check is wired here (src/gateway/api/index.ts).
 */
export const oauthRoutes = (ctx: ServiceContext, { humanCheck }: { humanCheck: HumanCheck }) => {
  type Ctx = { request: Request; server: Server<unknown> | null; set: Set };
  const limited = async ({ request, server }: Ctx) => limitPerAddress(ctx, "login", request, server);
  const app = new Elysia()
    .get("/api/oauth/state", async (c) => {
      await limited(c);
      const { request, set } = c;
      const caller = await callerOf(ctx, request);
      const intent = { provider: "", aff: queryOf(request).aff ?? "", verifier: "", nonce: "" };
      const browser = browserOf(request, set);
      return ok(await issueState(ctx, { ...intent, browser, userId: caller?.user.id ?? 0 }));
    })
    .get("/api/oauth/wechat", async (c) => {
      await limited(c);
      const { code = "", aff = "" } = queryOf(c.request);
      const outcome = await signInWithWeChat(ctx, code, { aff, humanCheck: () => humanCheck(c.request, c.server) });
      return reply(ctx, c.request, c.set, outcome);
    })
    .get("/api/oauth/telegram/login", async (c) => {
      await limited(c);
      const { aff = "", ...fields } = queryOf(c.request);
      return reply(ctx, c.request, c.set, await signInWithTelegram(ctx, fields, aff));
    })
    .get("/api/oauth/telegram/bind", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      await bindTelegram(ctx, user, queryOf(request));
      return ok(null, "bound");
    })
    .delete("/api/user/oauth/bindings/:provider", async ({ request, params }) => {
      const { user } = await authenticate(ctx, request);
      await unbind(ctx, user, params.provider);
      return ok(null, "unbound");
    });
  const wechatBind = async ({ request }: { request: Request }) => {
    const { user } = await authenticate(ctx, request);
    await bindWeChat(ctx, user, queryOf(request).code ?? "");
    return ok(null, "bound");
  };
  // The spec's console binds with GET; the dialect's own clients POST. (Elysia's route methods add to `app`.)
  app.get("/api/oauth/wechat/bind", wechatBind).post("/api/oauth/wechat/bind", wechatBind);
  for (const provider of Object.keys(CODE_FLOWS) as CodeFlowProvider[]) {
    app
      .get(`/api/oauth/${provider}/start`, async (c) => {
        await limited(c);
        const { request, set } = c;
        const caller = await callerOf(ctx, request);
        const aff = queryOf(request).aff ?? "";
        const url = await startSignIn(ctx, provider, { browser: browserOf(request, set), aff, user: caller?.user });
        return ok(url);
      })
      .get(`/api/oauth/${provider}`, async (c) => {
        await limited(c);
        const { code = "", state = "" } = queryOf(c.request);
        const browser = readCookie(c.request, OAUTH_BROWSER_COOKIE) ?? "";
        const caller = await callerOf(ctx, c.request);
        const outcome = await finishSignIn(ctx, provider, { code, state, browser, caller: caller?.user });
        return reply(ctx, c.request, c.set, outcome);
      });
  }
  return app;
};
