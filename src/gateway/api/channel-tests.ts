import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { testChannel, testChannels } from "../../service/relay/channel-tests";
import { ChannelStatus } from "../../shared/channel-types";
import { Role } from "../../shared/constants";
import { ok } from "../http/envelope";
import { relayProbe } from "../relay/probe";
import { authenticate } from "./auth";
import { idParam } from "./request";

/** Channel tests (admin): one channel on demand, or all channels not disabled by hand, in the background. */
export const channelTestRoutes = (ctx: ServiceContext) => {
  const probe = relayProbe(ctx);
  return new Elysia()
    .get("/api/channel/test/:id", async ({ request, params, query }) => {
      await authenticate(ctx, request, Role.Admin);
      const result = await testChannel(ctx, probe, idParam(params.id), query.model);
      return { ...result, data: null };
    })
    .get("/api/channel/test", async ({ request }) => {
      await authenticate(ctx, request, Role.Admin);
      const run = testChannels(ctx, probe, [ChannelStatus.Enabled, ChannelStatus.AutoDisabled]);
      await Promise.race([run, Bun.sleep(0)]);
      run.catch(() => {});
      return ok(null, "channel test started");
    });
};
