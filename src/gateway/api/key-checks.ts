import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { keyLogs, keyUsage } from "../../service/tokens/read-only";
import { ok } from "../http/envelope";
import { limitPerAddress } from "./rate-limit";

/**
 * The read-only calls of balance checkers and downstream gateways, authenticated by the relay key itself
 * (any status), open to other origins like the relay (see RELAY_PATH) and limited per address.
 */
export const keyCheckRoutes = (ctx: ServiceContext) =>
  new Elysia()
    .get("/api/usage/token", async ({ request, server }) => {
      await limitPerAddress(ctx, "keyCheck", request, server);
      const data = await keyUsage(ctx, request.headers.get("authorization"));
      return { code: true, message: "ok", data };
    })
    .get("/api/log/token", async ({ request, server }) => {
      await limitPerAddress(ctx, "keyCheck", request, server);
      return ok(await keyLogs(ctx, request.headers.get("authorization")));
    });
