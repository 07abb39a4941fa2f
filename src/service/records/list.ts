import { pageRecords, type RecordTable } from "../../db/queries/tasks";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { requireAdmin } from "../users/admin-access";
import { timeRangeOf } from "./time-range";
import { clientImageUrl } from "../tasks/views";

/** A record as shown: a drawing's image at the address clients are given (MjForwardUrlEnabled: through this server). */
function shownRecord<R extends object>(ctx: ServiceContext, row: R): R {
  if (!("image_url" in row) || !("mj_id" in row) || !row.image_url) return row;
  return { ...row, image_url: clientImageUrl(ctx, row as { image_url: string; mj_id: string }) };
}

export type { RecordTable } from "../../db/queries/tasks";

/** "all": an admin's view of every user's records, channel included; "own": the caller's, without the channel. */
export type RecordScope = "all" | "own";

interface Paging {
  page: number;
  pageSize: number;
}

/** The text filters each table takes from the query, by column. */
const TEXT_FILTERS: Record<RecordTable, string[]> = {
  midjourneys: ["mj_id"],
  tasks: ["task_id", "platform"],
};

function channelIdOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) refuse("channel_id must be a channel id", 400);
  return n;
}

function textFilters(table: RecordTable, query: Record<string, unknown>): Record<string, string> {
  const equal: Record<string, string> = {};
  for (const column of TEXT_FILTERS[table]) {
    const value = query[column];
    if (typeof value === "string" && value.trim()) equal[column] = value.trim();
  }
  return equal;
}

/**
 * A page of drawing or async task records, newest first, filtered by the spec's fields and submit_time.
 * Admins may see everyone's and filter by channel; a user sees only their own, never the channel.
 */
export async function listRecords<T extends RecordTable>(
  ctx: ServiceContext,
  actor: UserRow,
  scope: RecordScope,
  table: T,
  query: Record<string, unknown>,
  paging: Paging,
) {
  if (scope === "all") requireAdmin(actor);
  const { page, pageSize } = paging;
  const { rows, total } = await pageRecords(ctx.db, table, {
    userId: scope === "own" ? actor.id : undefined,
    channelId: scope === "all" ? channelIdOf(query.channel_id) : undefined,
    equal: textFilters(table, query),
    ...timeRangeOf(query),
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  const shown = rows.map((row) => shownRecord(ctx, row));
  const items = scope === "all" ? shown : shown.map(({ channel_id: _hidden, ...own }) => own);
  return { items, page, page_size: pageSize, total };
}
