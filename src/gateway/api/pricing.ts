import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { ServiceError } from "../../service/errors";
import { pricingFor } from "../../service/pricing/catalog";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";

/** The public pricing page; a signed-in caller sees their own groups and ratios. */
export const pricingRoutes = (ctx: ServiceContext) =>
  new Elysia().get("/api/pricing", async ({ request }) => {
    const viewer = await authenticate(ctx, request).then(
      (caller) => caller.user,
      (error) => (error instanceof ServiceError ? undefined : Promise.reject(error)),
    );
    const { data, group_ratio, usable_group } = pricingFor(ctx, viewer);
    return { ...ok(data), group_ratio, usable_group };
  });
