import { Elysia } from "elysia";
import { completeSetup, setupState } from "../../service/accounts/setup";
import type { ServiceContext } from "../../service/context";
import { ok } from "../http/envelope";
import { bodyOf } from "./request";
import { limitPerAddress } from "./rate-limit";

export const setupRoutes = (ctx: ServiceContext) =>
  new Elysia()
    .get("/api/setup", async () => ok(await setupState(ctx)))
    .post("/api/setup", async ({ request, server }) => {
      await limitPerAddress(ctx, "register", request, server);
      await completeSetup(ctx, await bodyOf(ctx, request));
      return ok(null, "system initialized");
    });
