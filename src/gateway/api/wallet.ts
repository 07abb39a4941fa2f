import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { redeemCode } from "../../service/redemptions/redeem";
import { handleEpayNotify } from "../../service/wallet/notify";
import { createEpayOrder } from "../../service/wallet/order";
import { topUpPrice } from "../../service/wallet/quote";
import { readBodyLimited } from "../http/body";
import { ok } from "../http/envelope";
import { authenticate } from "./auth";
import { limitPerAddress } from "./rate-limit";
import { bodyOf } from "./request";

/** The notice's parameters: the query string, and for a POST the form body over it. */
async function notifyParamsOf(ctx: ServiceContext, request: Request): Promise<Record<string, string>> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method !== "POST") return params;
  const form = new URLSearchParams(await readBodyLimited(request, ctx.config.apiBodyLimitBytes));
  return { ...params, ...Object.fromEntries(form) };
}

/** The wallet: redeem a code, price and pay an online top-up, and the payment gateway's notice (public). */
export const walletRoutes = (ctx: ServiceContext) => {
  const notify = async ({ request }: { request: Request }) => handleEpayNotify(ctx, await notifyParamsOf(ctx, request));
  return new Elysia()
    .post("/api/user/topup", async ({ request, server }) => {
      const { user } = await authenticate(ctx, request);
      await limitPerAddress(ctx, "redeem", request, server);
      return ok(await redeemCode(ctx, user, await bodyOf(ctx, request)));
    })
    .post("/api/user/amount", async ({ request }) => {
      const { user } = await authenticate(ctx, request);
      return ok(topUpPrice(ctx, user, await bodyOf(ctx, request)), "success");
    })
    .post("/api/user/pay", async ({ request, server }) => {
      const { user } = await authenticate(ctx, request);
      await limitPerAddress(ctx, "pay", request, server);
      const { url, fields } = await createEpayOrder(ctx, user, await bodyOf(ctx, request));
      return { ...ok(fields, "success"), url };
    })
    .get("/api/user/epay/notify", notify)
    .post("/api/user/epay/notify", notify);
};
