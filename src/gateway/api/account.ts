import { Elysia } from "elysia";
import { login, logout } from "../../service/accounts/login";
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

export const CROSS_SITE_LOGOUT = "sign-out must come from this site's own pages";

/** Registration, sign-in and sign-out. */
export const accountRoutes = (ctx: ServiceContext) => {
  const signOut = async ({ request, set }: { request: Request; set: { headers: Record<string, unknown> } }) => {
    if (fromAnotherSite(request)) refuse(CROSS_SITE_LOGOUT, 403);
    await logout(ctx, readCookie(request, SESSION_COOKIE));
    set.headers["set-cookie"] = clearedSessionCookie();
    return ok(null, "logged out");
  };
  return (
    new Elysia()
      .post("/api/user/register", async ({ request, server }) => {
        await limitPerAddress(ctx, "register", request, server);
        await register(ctx, await bodyOf(ctx, request));
        return ok(null, "registration succeeded");
      })
      .post("/api/user/login", async ({ request, server, set }) => {
        await limitPerAddress(ctx, "login", request, server);
        const { user, sessionId } = await login(
          ctx,
          await bodyOf(ctx, request),
          clientIp(request, server, ctx.config.trustProxy),
        );
        set.headers["set-cookie"] = sessionCookie(request, sessionId, ctx.config.sessionTtlSeconds);
        return ok(toLoginView(user), "login succeeded");
      })
      .post("/api/user/logout", signOut)
      // The dialect's own call (spec: GET /api/user/logout), kept for its clients; a link on another site is refused.
      .get("/api/user/logout", signOut)
  );
};
