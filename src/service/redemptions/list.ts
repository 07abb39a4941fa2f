import { findLiveRedemption, pageRedemptions } from "../../db/queries/redemptions";
import type { RedemptionRow, UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { requireAdmin } from "../users/admin-access";
import { idOf } from "../input";
import { toRedemptionView, type RedemptionPage, type RedemptionView } from "./view";

export interface RedemptionListQuery {
  /** The id, or part of the name. */
  keyword?: string;
  page: number;
  pageSize: number;
}

/** Live codes, newest first, optionally those whose id is the keyword or whose name contains it. */
export async function listRedemptions(
  ctx: ServiceContext,
  actor: UserRow,
  query: RedemptionListQuery,
): Promise<RedemptionPage> {
  requireAdmin(actor);
  const { keyword, page, pageSize } = query;
  const filter = { keyword: keyword?.trim() || undefined, offset: (page - 1) * pageSize, limit: pageSize };
  const { rows, total } = await pageRedemptions(ctx.db, filter);
  return { items: rows.map(toRedemptionView), page, page_size: pageSize, total };
}

export async function liveRedemption(ctx: ServiceContext, id: number): Promise<RedemptionRow> {
  return (await findLiveRedemption(ctx.db, id)) ?? notFound("redemption code");
}

export async function getRedemption(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<RedemptionView> {
  requireAdmin(actor);
  return toRedemptionView(await liveRedemption(ctx, idOf(id)));
}
