import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { PUBLIC_PAGES, publicText } from "../../service/status";
import { ok } from "../http/envelope";

/** The site's public texts (notice, about, home page), readable before sign-in. */
export function contentRoutes(ctx: ServiceContext) {
  const routes = new Elysia();
  for (const page of PUBLIC_PAGES) routes.get(`/api/${page}`, () => ok(publicText(ctx, page)));
  return routes;
}
