import { sumBuckets, type BucketFilter } from "../../db/queries/quota-data";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { timeRangeOf } from "../records/time-range";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { hourOf } from "./rollup";

const DEFAULT_SPAN = 86_400;
export const SELF_SPAN_MAX = 2_592_000;
export const SPAN_TOO_LONG = "the time range cannot exceed 1 month (2592000 seconds)";

/**
 * The hours of the query: end defaults to now and start to a day before end; a start inside an hour
 * takes that whole hour (rows are per hour, stamped with its start).
 */
function hoursOf(query: Record<string, unknown>, maxSpan?: number): { start: number; end: number } {
  const range = timeRangeOf(query);
  const end = range.end ?? Math.max(nowSeconds(), range.start ?? 0);
  const start = range.start ?? Math.max(0, end - DEFAULT_SPAN);
  if (maxSpan !== undefined && end - start > maxSpan) refuse(SPAN_TOO_LONG);
  return { start: hourOf(start), end };
}

const byModel = (ctx: ServiceContext, f: BucketFilter) => sumBuckets(ctx.db, "model_name", f);

/** Every user's consumption per model and hour (admin); with `username`, only that user's. */
export function consumptionByModel(ctx: ServiceContext, actor: UserRow, query: Record<string, unknown>) {
  requireAdmin(actor);
  const username = typeof query.username === "string" && query.username.trim() ? query.username.trim() : undefined;
  return byModel(ctx, { ...hoursOf(query), username });
}

/** Consumption per user and hour (admin). */
export function consumptionByUser(ctx: ServiceContext, actor: UserRow, query: Record<string, unknown>) {
  requireAdmin(actor);
  return sumBuckets(ctx.db, "username", hoursOf(query));
}

/** The caller's own consumption per model and hour, over at most a month. */
export function ownConsumption(ctx: ServiceContext, user: UserRow, query: Record<string, unknown>) {
  return byModel(ctx, { ...hoursOf(query, SELF_SPAN_MAX), userId: user.id });
}
