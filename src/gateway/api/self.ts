import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { usableGroups } from "../../service/groups";
import { usableModels } from "../../service/models";
import { toUserView } from "../../service/users/dto";
import { affCodeOf, deleteSelf, regenerateAccessToken, transferAffQuota, updateSelf } from "../../service/users/self";
import { clearedSessionCookie } from "../http/cookies";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { bodyOf } from "./request";

/** A signed-in user's own account. */
export const selfRoutes = (ctx: ServiceContext) =>
  new Elysia()
    .get("/api/user/self", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      return ok(toUserView(user));
    })
    .put("/api/user/self", async ({ request, set }) => {
      const { user } = await authenticate(ctx, request);
      const { signedOut } = await updateSelf(ctx, user, await bodyOf(ctx, request));
      if (!signedOut) return ok(null, "user updated");
      set.headers["set-cookie"] = clearedSessionCookie();
      return ok(null, "password changed, please sign in again");
    })
    .delete("/api/user/self", async ({ request, set }) => {
      const { user } = await authenticate(ctx, request);
      await deleteSelf(ctx, user);
      set.headers["set-cookie"] = clearedSessionCookie();
      return ok(null, "account deleted");
    })
    .get("/api/user/token", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      return ok(await regenerateAccessToken(ctx, user));
    })
    .get("/api/user/aff", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      return ok(await affCodeOf(ctx, user));
    })
    .post("/api/user/aff_transfer", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      const body = await bodyOf(ctx, request);
      await transferAffQuota(ctx, user, body.quota);
      return ok(null, "transferred");
    })
    .get("/api/user/models", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      return ok(await usableModels(ctx, user));
    })
    .get("/api/user/self/groups", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      return ok(usableGroups(ctx, user.group));
    });
