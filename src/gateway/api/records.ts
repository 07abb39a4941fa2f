import { Elysia } from "elysia";
import type { RecordTable } from "../../service/records/list";
import type { ServiceContext } from "../../service/context";
import { listRecords, type RecordScope } from "../../service/records/list";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { pagingOf } from "./request";

/** Drawing (/api/mj) and async task (/api/task) records: everyone's for admins, one's own at /self. */
export const recordRoutes = (ctx: ServiceContext) => {
  const list =
    (table: RecordTable, scope: RecordScope) =>
    async ({ request, query }: { request: Request; query: Record<string, string | undefined> }) => {
      const { user } = await authenticate(ctx, request, scope === "all" ? Role.Admin : Role.Common);
      return ok(await listRecords(ctx, user, scope, table, query, pagingOf(query)));
    };
  return new Elysia()
    .get("/api/mj/", list("midjourneys", "all"))
    .get("/api/mj/self", list("midjourneys", "own"))
    .get("/api/task/", list("tasks", "all"))
    .get("/api/task/self", list("tasks", "own"));
};
