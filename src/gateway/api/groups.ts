import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { groupNames } from "../../service/groups";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";

export const groupRoutes = (ctx: ServiceContext) =>
  new Elysia().get("/api/group/", async ({ request }) => {
    await authenticate(ctx, request, Role.Admin);
    return ok(groupNames(ctx));
  });
