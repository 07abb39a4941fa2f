import { updateLiveRedemption } from "../../db/queries/redemptions";
import type { RedemptionRow, UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { idOf, integerOf, type Input } from "../input";
import { mergeFields } from "./fields";
import { liveRedemption } from "./list";
import { RedemptionStatus } from "./status";
import { toRedemptionView, type RedemptionView } from "./view";

const { Unused, Disabled, Used } = RedemptionStatus;

export const USED_CODE_IS_FINAL = "the redemption code has been used and can no longer be changed";
export const ONLY_UNUSED_EDITABLE = "only an unused redemption code can be edited";
export const CHANGED_MEANWHILE = "the redemption code was changed meanwhile, please reload and try again";

function statusOf(value: unknown): number {
  const status = integerOf(value, "status");
  return status === Unused || status === Disabled ? status : refuse("status must be 1 (unused) or 2 (disabled)");
}

/**
 * Full (default): name, quota and expiry of an unused code. Status only: enables or disables a code that is
 * not used. The change applies only if the code is still in a status that allows it, so it cannot overtake a
 * redemption in between.
 */
export async function updateRedemption(
  ctx: ServiceContext,
  actor: UserRow,
  input: Input,
  statusOnly: boolean,
): Promise<RedemptionView> {
  requireAdmin(actor);
  const id = idOf(input.id);
  const code = await liveRedemption(ctx, id);
  if (code.status === Used) refuse(USED_CODE_IS_FINAL);
  if (!statusOnly && code.status !== Unused) refuse(ONLY_UNUSED_EDITABLE);
  const patch = statusOnly ? { status: statusOf(input.status) } : mergeFields(ctx, input, code, nowSeconds());
  const changes = Object.fromEntries(
    Object.entries(patch).filter(([name, value]) => code[name as keyof RedemptionRow] !== value),
  );
  if (Object.keys(changes).length > 0) {
    const allowed = statusOnly ? [Unused, Disabled] : [Unused];
    if (!(await updateLiveRedemption(ctx.db, id, changes, allowed))) refuse(CHANGED_MEANWHILE);
  }
  return toRedemptionView({ ...code, ...changes });
}
