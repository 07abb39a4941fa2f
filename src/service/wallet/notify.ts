import { inTransaction } from "../../db/exec";
import { findTopUpByTradeNo, moveTopUpStatus } from "../../db/queries/top-ups";
import { addUserQuota } from "../../db/queries/users";
import type { TopUpRow } from "../../db/schema";
import { LogType } from "../../shared/constants";
import { quotaText } from "../quota-text";
import type { ServiceContext } from "../context";
import { recordBalanceChange } from "../ledger";
import { nowSeconds } from "../time";
import { epaySettings } from "./epay";
import { isEpaySigned } from "./epay-sign";
import { centsOfText, moneyText, toCents } from "./money";
import { TopUpStatus } from "./order";

/** "success" tells the gateway to stop sending this notice; "fail" that it was not accepted. */
export type NotifyReply = "success" | "fail";

/** Marks the order paid and credits its quota in one transaction, unless a concurrent notice already did. */
async function creditOrder(ctx: ServiceContext, order: TopUpRow, gatewayTradeNo: string): Promise<void> {
  const user = await ctx.users.get(order.user_id);
  const paid = moneyText(toCents(order.money));
  const credited = await inTransaction(ctx.db, async (tx) => {
    if (!(await moveTopUpStatus(tx, order.trade_no, TopUpStatus.Pending, TopUpStatus.Success, nowSeconds())))
      return false;
    await addUserQuota(tx, order.user_id, order.amount);
    await recordBalanceChange(tx, {
      userId: order.user_id,
      username: user?.username ?? "",
      type: LogType.TopUp,
      quota: order.amount,
      content: `online top-up of ${quotaText(ctx, order.amount)}: paid ${paid} by ${order.payment_method}, order ${order.trade_no}, epay trade ${gatewayTradeNo}`,
    });
    return true;
  });
  if (credited) ctx.users.forget(order.user_id);
}

/**
 * The Epay notice (GET query or POST form). Accepted only when signed with the merchant key for our merchant
 * id; a successful payment credits its order only if the order is pending and the money paid is the order's,
 * to the cent. A notice for an order already credited answers "success" and changes nothing.
 */
export async function handleEpayNotify(ctx: ServiceContext, params: Record<string, string>): Promise<NotifyReply> {
  const epay = epaySettings(ctx);
  if (!epay || params.pid !== epay.pid || !isEpaySigned(params, epay.key)) return "fail";
  if (params.trade_status !== "TRADE_SUCCESS") return "success";
  const order = params.out_trade_no ? await findTopUpByTradeNo(ctx.db, params.out_trade_no) : undefined;
  if (order?.payment_provider !== "epay") return "fail";
  if (order.status === TopUpStatus.Success) return "success";
  if (order.status !== TopUpStatus.Pending || centsOfText(params.money) !== toCents(order.money)) return "fail";
  await creditOrder(ctx, order, params.trade_no ?? "");
  return "success";
}
