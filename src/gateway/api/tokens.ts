import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { createTokens } from "../../service/tokens/create";
import { deleteToken, deleteTokens } from "../../service/tokens/delete";
import { getToken } from "../../service/tokens/get";
import { listTokens } from "../../service/tokens/list";
import { revealKey, revealKeys } from "../../service/tokens/reveal";
import { updateToken } from "../../service/tokens/update";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { limitPerAddress } from "./rate-limit";
import { bodyOf, pagingOf } from "./request";

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** A signed-in user's own access tokens; every call reaches only the caller's tokens. */
export const tokenRoutes = (ctx: ServiceContext) => {
  const owner = async (request: Request) => (await authenticate(ctx, request)).user;
  return new Elysia()
    .get("/api/token/", async ({ request, query }) => ok(await listTokens(ctx, await owner(request), pagingOf(query))))
    .get("/api/token/search", async ({ request, query }) => {
      const filter = { keyword: text(query.keyword), token: text(query.token), ...pagingOf(query) };
      return ok(await listTokens(ctx, await owner(request), filter));
    })
    .get("/api/token/:id", async ({ request, params }) => ok(await getToken(ctx, await owner(request), params.id)))
    .post("/api/token/", async ({ request }) => {
      const user = await owner(request);
      return ok(await createTokens(ctx, user, await bodyOf(ctx, request)));
    })
    .put("/api/token/", async ({ request, query }) => {
      const user = await owner(request);
      const statusOnly = query.status_only === "true" || query.status_only === "1";
      return ok(await updateToken(ctx, user, await bodyOf(ctx, request), statusOnly));
    })
    .delete("/api/token/:id", async ({ request, params }) => {
      await deleteToken(ctx, await owner(request), params.id);
      return ok(null);
    })
    .post("/api/token/batch", async ({ request }) => {
      const user = await owner(request);
      return ok(await deleteTokens(ctx, user, await bodyOf(ctx, request)));
    })
    .post("/api/token/:id/key", async ({ request, params, server }) => {
      const user = await owner(request);
      await limitPerAddress(ctx, "keyReveal", request, server);
      return ok({ key: await revealKey(ctx, user, params.id) });
    })
    .post("/api/token/batch/keys", async ({ request, server }) => {
      const user = await owner(request);
      await limitPerAddress(ctx, "keyReveal", request, server);
      return ok({ keys: await revealKeys(ctx, user, await bodyOf(ctx, request)) });
    });
};
