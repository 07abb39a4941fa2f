import { softDeleteDeadRedemptions, softDeleteRedemption } from "../../db/queries/redemptions";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { idOf } from "../input";
import { RedemptionStatus } from "./status";

/** Deletes one code, whatever its status; a deleted code can no longer be redeemed. */
export async function deleteRedemption(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<void> {
  requireAdmin(actor);
  if (!(await softDeleteRedemption(ctx.db, idOf(id), nowSeconds()))) notFound("redemption code");
}

/** Deletes every code that can no longer be redeemed: used, disabled or expired; answers how many. */
export async function deleteInvalidRedemptions(ctx: ServiceContext, actor: UserRow): Promise<number> {
  requireAdmin(actor);
  const now = nowSeconds();
  return softDeleteDeadRedemptions(ctx.db, [RedemptionStatus.Used, RedemptionStatus.Disabled], now, now);
}
