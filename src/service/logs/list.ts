import { logRowsByIds, pageLogPlaces } from "../../db/queries/logs";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { logFilterOf, type LogQuery, type LogScope } from "./filter";
import { withoutOpenEnd } from "./open-end";
import { logTotalsOf } from "./totals";
import { logViewOf, type LogView } from "./view";

export interface LogPage {
  items: LogView[];
  page: number;
  page_size: number;
  total: number;
}

/**
 * A page of log entries, newest first (created_at desc, id desc), with the exact total that match.
 * "all" is every user's rows (admin); "own" is the caller's rows without channel details.
 */
export async function listLogs(
  ctx: ServiceContext,
  actor: UserRow,
  scope: LogScope,
  query: LogQuery,
  paging: { page: number; pageSize: number },
): Promise<LogPage> {
  const filter = await withoutOpenEnd(ctx.db, logFilterOf(actor, scope, query));
  const { page, pageSize } = paging;
  const places = await pageLogPlaces(ctx.db, filter, { limit: pageSize, offset: (page - 1) * pageSize });
  const total = await logTotalsOf(ctx.db).count(filter);
  const rows = await logRowsByIds(
    ctx.db,
    places.map((place) => place.id),
  );
  return { items: rows.map(logViewOf(scope)), page, page_size: pageSize, total };
}
