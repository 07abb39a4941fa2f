import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { platformStatus } from "../../service/status";
import { ok } from "../http/envelope";

export const statusRoutes = (ctx: ServiceContext) =>
  new Elysia().get("/api/status", async () => ok(await platformStatus(ctx)));
