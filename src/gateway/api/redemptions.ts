import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { createRedemptions } from "../../service/redemptions/create";
import { deleteInvalidRedemptions, deleteRedemption } from "../../service/redemptions/delete";
import { getRedemption, listRedemptions } from "../../service/redemptions/list";
import { updateRedemption } from "../../service/redemptions/update";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { bodyOf, pagingOf } from "./request";

type Query = Record<string, string | undefined>;

/** Redemption codes (admin): list, search by id or name, get, create, update, delete. */
export const redemptionRoutes = (ctx: ServiceContext) => {
  const admin = async (request: Request) => (await authenticate(ctx, request, Role.Admin)).user;
  const list = async ({ request, query }: { request: Request; query: Query }) =>
    ok(await listRedemptions(ctx, await admin(request), { keyword: query.keyword, ...pagingOf(query) }));
  return new Elysia()
    .get("/api/redemption/", list)
    .get("/api/redemption/search", list)
    .get("/api/redemption/:id", async ({ request, params }) =>
      ok(await getRedemption(ctx, await admin(request), params.id)),
    )
    .post("/api/redemption/", async ({ request }) => {
      const actor = await admin(request);
      return ok(await createRedemptions(ctx, actor, await bodyOf(ctx, request)));
    })
    .put("/api/redemption/", async ({ request, query }) => {
      const actor = await admin(request);
      const statusOnly = query.status_only === "true" || query.status_only === "1";
      return ok(await updateRedemption(ctx, actor, await bodyOf(ctx, request), statusOnly));
    })
    .delete("/api/redemption/invalid", async ({ request }) =>
      ok(await deleteInvalidRedemptions(ctx, await admin(request))),
    )
    .delete("/api/redemption/:id", async ({ request, params }) => {
      await deleteRedemption(ctx, await admin(request), params.id);
      return ok(null);
    });
};
