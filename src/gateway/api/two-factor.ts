import { Elysia } from "elysia";
import {
  beginTwoFactorSetup,
  disableTwoFactor,
  enableTwoFactor,
  twoFactorStatus,
} from "../../service/accounts/two-factor";
import type { ServiceContext } from "../../service/context";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { bodyOf } from "./request";

/** Two-factor sign-in of the signed-in user: status, setup, turning on (with a code) and off (with a code). */
export const twoFactorRoutes = (ctx: ServiceContext) =>
  new Elysia()
    .get("/api/user/2fa/status", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      return ok(twoFactorStatus(ctx, user));
    })
    .post("/api/user/2fa/setup", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      return ok(await beginTwoFactorSetup(ctx, user));
    })
    .post("/api/user/2fa/enable", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      const body = await bodyOf(ctx, request);
      return ok({ recovery_codes: await enableTwoFactor(ctx, user, body.code) }, "two-factor sign-in is on");
    })
    .post("/api/user/2fa/disable", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      const body = await bodyOf(ctx, request);
      await disableTwoFactor(ctx, user, body.code);
      return ok(null, "two-factor sign-in is off");
    });
