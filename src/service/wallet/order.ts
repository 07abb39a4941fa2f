import { insertTopUp } from "../../db/queries/top-ups";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import type { Input } from "../input";
import { epaySettings } from "./epay";
import { signEpay } from "./epay-sign";
import { moneyText } from "./money";
import { quoteTopUp } from "./quote";

/** Only pending → success credits the user, once. */
export const TopUpStatus = { Pending: "pending", Success: "success" } as const;

export const ONLINE_TOP_UP_DISABLED = "the administrator has not enabled online top-up";
export const METHOD_UNAVAILABLE = "this payment method is not available";

/** The form the browser posts to the payment gateway. */
export interface EpayForm {
  url: string;
  fields: Record<string, string>;
}

function paymentMethodOf(ctx: ServiceContext, value: unknown): string {
  const methods = ctx.options.json<{ type?: unknown }[]>("PayMethods").map((method) => method.type);
  return typeof value === "string" && methods.includes(value) ? value : refuse(METHOD_UNAVAILABLE);
}

/**
 * POST /api/user/pay: a pending order for the quoted quota and money, and the signed Epay form that pays it.
 * The order keeps the quota it credits, so later changes of the price or the display unit do not alter it.
 */
export async function createEpayOrder(ctx: ServiceContext, user: UserRow, input: Input): Promise<EpayForm> {
  const epay = epaySettings(ctx) ?? refuse(ONLINE_TOP_UP_DISABLED);
  const quote = quoteTopUp(ctx, user, input.amount);
  const method = paymentMethodOf(ctx, input.payment_method);
  const now = nowSeconds();
  const tradeNo = `USR${user.id}NO${randomAlphanumeric(6)}${now}`;
  await insertTopUp(ctx.db, {
    user_id: user.id,
    amount: quote.quota,
    money: quote.cents / 100,
    trade_no: tradeNo,
    payment_method: method,
    payment_provider: "epay",
    create_time: now,
    status: TopUpStatus.Pending,
  });
  const fields = {
    pid: epay.pid,
    type: method,
    out_trade_no: tradeNo,
    notify_url: epay.notifyUrl,
    return_url: epay.returnUrl,
    name: `TUC${quote.amount}`,
    money: moneyText(quote.cents),
  };
  return {
    url: `${epay.address}/submit.php`,
    fields: { ...fields, sign: signEpay(fields, epay.key), sign_type: "MD5" },
  };
}
