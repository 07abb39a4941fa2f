import { findChannel, pageChannelRows, pageChannels, type ChannelFilter } from "../../db/queries/channels";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { requireAdmin } from "../users/admin-access";
import { idOf } from "../input";
import { toChannelView, type ChannelPage, type ChannelTagRow, type ChannelView } from "./view";

export interface ChannelListQuery extends ChannelFilter {
  /** Newest id first; otherwise highest priority first, then newest id. */
  idSort: boolean;
  /** Items are tag rows (ChannelTagRow) instead of channels. */
  tagMode: boolean;
  page: number;
  pageSize: number;
}

/** Channels (or, in tag mode, tag rows) matching the filter, a page at a time. */
export async function listChannels(
  ctx: ServiceContext,
  actor: UserRow,
  query: ChannelListQuery,
): Promise<ChannelPage<ChannelView> | ChannelPage<ChannelTagRow>> {
  requireAdmin(actor);
  const { page, pageSize } = query;
  const paged = { ...query, offset: (page - 1) * pageSize, limit: pageSize };
  const shape = <T>(items: T[], total: number) => ({ items, page, page_size: pageSize, total });
  if (query.tagMode) {
    const { rows, total } = await pageChannelRows(ctx.db, paged);
    return shape(
      rows.map((row) => ({ tag: row.tag, channels: row.channels.map(toChannelView) })),
      total,
    );
  }
  const { rows, total } = await pageChannels(ctx.db, paged);
  return shape(rows.map(toChannelView), total);
}

export async function getChannel(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<ChannelView> {
  requireAdmin(actor);
  return toChannelView((await findChannel(ctx.db, idOf(id))) ?? notFound("channel"));
}
