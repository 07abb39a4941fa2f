import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { deleteLogsBefore } from "../../service/logs/cleanup";
import { exportLogs } from "../../service/logs/export";
import type { LogScope } from "../../service/logs/filter";
import { listLogs } from "../../service/logs/list";
import { logStat } from "../../service/logs/stat";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { localizeLogContents } from "../http/localize";
import { authenticate } from "./auth";
import { pagingOf } from "./request";

type Query = Record<string, string | undefined>;
type Call = { request: Request; query: Query };

const exportName = () => `logs-${new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-")}.csv`;

/** Usage logs: everyone's at /api/log/ (admin), the caller's own at /api/log/self/; cleanup is root's. */
export const logRoutes = (ctx: ServiceContext) => {
  const caller = async (request: Request, scope: LogScope) =>
    (await authenticate(ctx, request, scope === "all" ? Role.Admin : Role.Common)).user;
  const list =
    (scope: LogScope) =>
    async ({ request, query }: Call) =>
      ok(
        localizeLogContents(request, await listLogs(ctx, await caller(request, scope), scope, query, pagingOf(query))),
      );
  const stat =
    (scope: LogScope) =>
    async ({ request, query }: Call) =>
      ok(await logStat(ctx, await caller(request, scope), scope, query));
  const csv =
    (scope: LogScope) =>
    async ({ request, query }: Call) =>
      new Response(exportLogs(ctx, await caller(request, scope), scope, query), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${exportName()}"`,
        },
      });
  return new Elysia()
    .get("/api/log/", list("all"))
    .get("/api/log/self", list("own"))
    .get("/api/log/stat", stat("all"))
    .get("/api/log/self/stat", stat("own"))
    .get("/api/log/export", csv("all"))
    .get("/api/log/self/export", csv("own"))
    .delete("/api/log/", async ({ request, query }: Call) => {
      const { user } = await authenticate(ctx, request, Role.Root);
      return ok(await deleteLogsBefore(ctx, user, query.target_timestamp));
    });
};
