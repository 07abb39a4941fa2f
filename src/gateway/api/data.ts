import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { consumptionByModel, consumptionByUser, ownConsumption } from "../../service/stats/dashboard";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";

/** Dashboard data from the hourly consumption rollups. */
export const dataRoutes = (ctx: ServiceContext) => {
  const caller = async (request: Request, minRole: number) => (await authenticate(ctx, request, minRole)).user;
  return new Elysia()
    .get("/api/data/", async ({ request, query }) =>
      ok(await consumptionByModel(ctx, await caller(request, Role.Admin), query)),
    )
    .get("/api/data/users", async ({ request, query }) =>
      ok(await consumptionByUser(ctx, await caller(request, Role.Admin), query)),
    )
    .get("/api/data/self", async ({ request, query }) =>
      ok(await ownConsumption(ctx, await caller(request, Role.Common), query)),
    );
};
