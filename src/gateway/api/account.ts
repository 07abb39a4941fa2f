import { Elysia } from "elysia";
import type { Server } from "bun";
import { login, loginSecondStep, logout } from "../../service/accounts/login";
import { mustSetUpTwoFactor } from "../../service/accounts/two-factor";
import type { UserRow } from "../../service/users/directory";
import { register } from "../../service/accounts/register";
import type { ServiceContext } from "../../service/context";
import { refuse } from "../../service/errors";
import { toLoginView } from "../../service/users/dto";
import { clientIp } from "../http/client-ip";
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from "../http/cookies";
import { ok } from "../http/envelope";
import { fromAnotherSite } from "../http/same-origin";
import { limitPerAddress } from "./rate-limit";
import { bodyOf } from "./request";

/** The signed-in user's record for the console; `require_2fa_setup` sends an admin to set up two-factor sign-in. */
const loginReply = (ctx: ServiceContext, user: UserRow) => ({
  ...toLoginView(user),
  require_2fa_setup: mustSetUpTwoFactor(ctx, user),
});

export const CROSS_SITE_LOGOUT = "sign-out must come from this site's own pages";

/** Registration, sign-in and sign-out. */
export const accountRoutes = (ctx: ServiceContext) => {
  const signOut = async ({ request, set }: { request: Request; set: { headers: Record<string, unknown> } }) => {
    if (fromAnotherSite(request)) refuse(CROSS_SITE_LOGOUT, 403);
    await logout(ctx, readCookie(request, SESSION_COOKIE));
    set.headers["set-cookie"] = clearedSessionCookie();
    return ok(null, "logged out");
  };
  const clientAddress = (request: Request, server: Server<unknown> | null) =>
    clientIp(request, server, ctx.config.trustProxy);
  return (
    new Elysia()
      .post("/api/user/register", async ({ request, server, query }) => {
        await limitPerAddress(ctx, "register", request, server);
        const clientIp = clientAddress(request, server);
        await register(ctx, await bodyOf(ctx, request), { clientIp, turnstile: query.turnstile });
        return ok(null, "registration succeeded");
      })
      .post("/api/user/login", async ({ request, server, set, query }) => {
        await limitPerAddress(ctx, "login", request, server);
        const signIn = await login(ctx, await bodyOf(ctx, request), clientAddress(request, server), query.turnstile);
        if ("ticket" in signIn) {
          return ok({ require_2fa: true, ticket: signIn.ticket }, "enter the code of your authenticator app");
        }
        set.headers["set-cookie"] = sessionCookie(request, signIn.sessionId, ctx.config.sessionTtlSeconds);
        return ok(loginReply(ctx, signIn.user), "login succeeded");
      })
      .post("/api/user/login/2fa", async ({ request, server, set }) => {
        await limitPerAddress(ctx, "login", request, server);
        const { user, sessionId } = await loginSecondStep(ctx, await bodyOf(ctx, request));
        set.headers["set-cookie"] = sessionCookie(request, sessionId, ctx.config.sessionTtlSeconds);
        return ok(loginReply(ctx, user), "login succeeded");
      })
      .post("/api/user/logout", signOut)
      // The dialect's own call (spec: GET /api/user/logout), kept for its clients; a link on another site is refused.
      .get("/api/user/logout", signOut)
  );
};
