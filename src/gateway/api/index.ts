import { Elysia } from "elysia";
import { verifyHumanCheck } from "../../service/accounts/human-check";
import type { ServiceContext } from "../../service/context";
import { clientIp } from "../http/client-ip";
import { accountRoutes } from "./account";
import { channelTestRoutes } from "./channel-tests";
import { channelRoutes } from "./channels";
import { contentRoutes } from "./content";
import { emailRoutes } from "./email";
import { dataRoutes } from "./data";
import { groupRoutes } from "./groups";
import { keyCheckRoutes } from "./key-checks";
import { logRoutes } from "./logs";
import { oauthRoutes } from "./oauth";
import { optionRoutes } from "./options";
import { pricingRoutes } from "./pricing";
import { recordRoutes } from "./records";
import { redemptionRoutes } from "./redemptions";
import { selfRoutes } from "./self";
import { setupRoutes } from "./setup";
import { statusRoutes } from "./status";
import { tokenRoutes } from "./tokens";
import { twoFactorRoutes } from "./two-factor";
import { userAdminRoutes } from "./users";
import { walletRoutes } from "./wallet";

/** Every /api route. */
export const apiRoutes = (ctx: ServiceContext) =>
  new Elysia()
    .use(statusRoutes(ctx))
    .use(setupRoutes(ctx))
    .use(contentRoutes(ctx))
    .use(accountRoutes(ctx))
    // WeChat sign-in asks for the human check (Turnstile) as the other sign-in calls do.
    .use(
      oauthRoutes(ctx, {
        humanCheck: (request, server) =>
          verifyHumanCheck(
            ctx,
            new URL(request.url).searchParams.get("turnstile"),
            clientIp(request, server, ctx.config.trustProxy),
          ),
      }),
    )
    .use(emailRoutes(ctx))
    .use(twoFactorRoutes(ctx))
    .use(selfRoutes(ctx))
    .use(userAdminRoutes(ctx))
    .use(optionRoutes(ctx))
    .use(groupRoutes(ctx))
    .use(tokenRoutes(ctx))
    .use(keyCheckRoutes(ctx))
    .use(channelTestRoutes(ctx))
    .use(channelRoutes(ctx))
    .use(logRoutes(ctx))
    .use(redemptionRoutes(ctx))
    .use(walletRoutes(ctx))
    .use(pricingRoutes(ctx))
    .use(dataRoutes(ctx))
    .use(recordRoutes(ctx));
