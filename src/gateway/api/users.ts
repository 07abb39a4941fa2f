import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { createUserAsAdmin, getUser, listUsers } from "../../service/users/admin";
import { manageUser } from "../../service/users/admin-manage";
import { updateUserAsAdmin } from "../../service/users/admin-update";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { bodyOf, idParam, pagingOf } from "./request";
import { clearTwoFactorAsAdmin } from "../../service/accounts/two-factor";

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** User administration (admin): list, search, get, create, update, manage. */
export const userAdminRoutes = (ctx: ServiceContext) => {
  const admin = async (request: Request) => (await authenticate(ctx, request, Role.Admin)).user;
  return new Elysia()
    .get("/api/user/", async ({ request, query }) => ok(await listUsers(ctx, await admin(request), pagingOf(query))))
    .get("/api/user/search", async ({ request, query }) => {
      const filter = { keyword: text(query.keyword), group: text(query.group), ...pagingOf(query) };
      return ok(await listUsers(ctx, await admin(request), filter));
    })
    .get("/api/user/:id", async ({ request, params }) => ok(await getUser(ctx, await admin(request), params.id)))
    .post("/api/user/", async ({ request }) => {
      const actor = await admin(request);
      return ok(await createUserAsAdmin(ctx, actor, await bodyOf(ctx, request)), "user created");
    })
    .put("/api/user/", async ({ request }) => {
      const actor = await admin(request);
      return ok(await updateUserAsAdmin(ctx, actor, await bodyOf(ctx, request)), "user updated");
    })
    .post("/api/user/manage", async ({ request }) => {
      const actor = await admin(request);
      return ok(await manageUser(ctx, actor, await bodyOf(ctx, request)), "operation succeeded");
    })
    .delete("/api/user/:id/2fa", async ({ request, params }) => {
      await clearTwoFactorAsAdmin(ctx, await admin(request), idParam(params.id));
      return ok(null, "two-factor sign-in is off");
    });
};
