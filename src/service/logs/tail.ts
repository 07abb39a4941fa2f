import { logRowsByIds, pageLogPlaces, type LogPlace } from "../../db/queries/logs";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { SETTLE_SECONDS } from "../stats/today";
import { logFilterOf, type LogQuery } from "./filter";
import { logViewOf, type LogView } from "./view";

/** Where a tail stands: rows from `since` on are looked at again, and those already shown are skipped. */
export interface TailCursor {
  since: number;
  shown: LogPlace[];
}

export interface LogTail {
  /** Rows not shown before, newest first. */
  rows: LogView[];
  cursor: TailCursor;
}

/**
 * An admin's live tail of everyone's log (the filters of the admin log list): the newest `limit` rows,
 * then on each call with the cursor the rows that arrived since. New rows are found by time, not by
 * "id above the last one": PostgreSQL and MySQL hand out ids before commit, so a smaller id can appear
 * after a larger one. The last SETTLE_SECONDS are read again each time, skipping rows already shown.
 */
export async function tailLogs(
  ctx: ServiceContext,
  actor: UserRow,
  query: LogQuery,
  cursor?: TailCursor,
  limit = 50,
): Promise<LogTail> {
  const filter = logFilterOf(actor, "all", query);
  const places = await pageLogPlaces(ctx.db, cursor ? { ...filter, start: cursor.since } : filter, { limit });
  const shown = new Set(cursor?.shown.map((place) => place.id));
  const fresh = places.filter((place) => !shown.has(place.id));
  const rows = await logRowsByIds(
    ctx.db,
    fresh.map((place) => place.id),
  );
  const newest = Math.max(cursor?.since ?? 0, ...places.map((place) => place.created_at));
  const since = Math.max(cursor?.since ?? 0, newest - SETTLE_SECONDS);
  const kept = [...(cursor?.shown ?? []), ...fresh].filter((place) => place.created_at >= since);
  return { rows: rows.map(logViewOf("all")), cursor: { since, shown: kept } };
}
