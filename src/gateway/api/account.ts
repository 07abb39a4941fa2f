import { Elysia } from "elysia";
import { login, logout } from "../../service/accounts/login";
import { register } from "../../service/accounts/register";
import type { ServiceContext } from "../../service/context";
import { toLoginView } from "../../service/users/dto";
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from "../http/cookies";
import { ok } from "../http/envelope";
import { limitCritical } from "./rate-limit";
import { bodyOf } from "./request";

/** Registration, sign-in and sign-out. */
export const accountRoutes = (ctx: ServiceContext) =>
  new Elysia()
    .post("/api/user/register", async ({ request, server }) => {
      await limitCritical(ctx, request, server);
      await register(ctx, await bodyOf(ctx, request));
      return ok(null, "registration succeeded");
    })
    .post("/api/user/login", async ({ request, server, set }) => {
      await limitCritical(ctx, request, server);
      const { user, sessionId } = await login(ctx, await bodyOf(ctx, request));
      set.headers["set-cookie"] = sessionCookie(request, sessionId, ctx.config.sessionTtlSeconds);
      return ok(toLoginView(user), "login succeeded");
    })
    .get("/api/user/logout", async ({ request, set }) => {
      await logout(ctx, readCookie(request, SESSION_COOKIE));
      set.headers["set-cookie"] = clearedSessionCookie();
      return ok(null, "logged out");
    });
