import { inTransaction } from "../../db/exec";
import { claimRedemption, findLiveRedemptionByKey } from "../../db/queries/redemptions";
import { addUserQuota } from "../../db/queries/users";
import type { UserRow } from "../../db/schema";
import { LogType } from "../../shared/constants";
import { quotaText } from "../quota-text";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { recordBalanceChange } from "../ledger";
import { nowSeconds } from "../time";
import type { Input } from "../input";
import { redemptionKeyOf } from "./key";
import { isExpired, RedemptionStatus } from "./status";

export const NO_CODE = "please enter a redemption code";
export const INVALID_CODE = "invalid redemption code";
export const CODE_USED = "the redemption code has already been used";
export const CODE_DISABLED = "the redemption code has been disabled";
export const CODE_EXPIRED = "the redemption code has expired";

/** Why a code that could not be claimed is not redeemable; read after the failed claim, outside its transaction. */
async function whyNotRedeemable(ctx: ServiceContext, key: string, now: number): Promise<string> {
  const code = await findLiveRedemptionByKey(ctx.db, key);
  if (code?.status === RedemptionStatus.Used) return CODE_USED;
  if (code?.status === RedemptionStatus.Disabled) return CODE_DISABLED;
  if (code && isExpired(code, now)) return CODE_EXPIRED;
  return INVALID_CODE;
}

/**
 * POST /api/user/topup: claims the code with one conditional update (unused → used), so however many
 * redeem it at once exactly one succeeds; the credit and its top-up log row commit with the claim.
 * Answers the quota added.
 */
export async function redeemCode(ctx: ServiceContext, user: UserRow, input: Input): Promise<number> {
  const text = typeof input.key === "string" ? input.key.trim() : "";
  if (!text) refuse(NO_CODE);
  const key = redemptionKeyOf(text) ?? refuse(INVALID_CODE);
  const now = nowSeconds();
  const claim = { key, userId: user.id, now, from: RedemptionStatus.Unused, to: RedemptionStatus.Used };
  const code = await inTransaction(ctx.db, async (tx) => {
    const claimed = await claimRedemption(tx, claim);
    if (!claimed) return undefined;
    await addUserQuota(tx, user.id, claimed.quota);
    await recordBalanceChange(tx, {
      userId: user.id,
      username: user.username,
      type: LogType.TopUp,
      quota: claimed.quota,
      content: `redeemed ${quotaText(ctx, claimed.quota)} with redemption code #${claimed.id}`,
    });
    return claimed;
  });
  if (!code) return refuse(await whyNotRedeemable(ctx, key, now));
  ctx.users.forget(user.id);
  return code.quota;
}
