import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { listOptions, resetModelPrices, saveOption } from "../../service/options/admin";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { bodyOf } from "./request";

/** Site options (root): list, save one, reset model ratios. */
export const optionRoutes = (ctx: ServiceContext) =>
  new Elysia()
    .get("/api/option/", async ({ request }) => {
      await authenticate(ctx, request, Role.Root);
      return ok(listOptions(ctx));
    })
    .put("/api/option/", async ({ request }) => {
      await authenticate(ctx, request, Role.Root);
      await saveOption(ctx, await bodyOf(ctx, request));
      return ok(null);
    })
    .post("/api/option/rest_model_ratio", async ({ request }) => {
      await authenticate(ctx, request, Role.Root);
      await resetModelPrices(ctx);
      return ok(null, "model ratios reset to defaults");
    });
