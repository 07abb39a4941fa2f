import { Elysia } from "elysia";
import type { ServiceContext } from "../../service/context";
import { readiness } from "../../service/health/readiness";
import { metricsAccess } from "../../service/metrics/access";
import { clientIp } from "./client-ip";
import { failure, json } from "./envelope";
import { notFoundReply } from "./not-found";

/**
 * The operator's endpoints: /healthz (the process answers), /readyz (it should be sent calls: database and
 * Redis reachable, migrations applied, not stopping; 503 otherwise) and /metrics (Prometheus text, behind
 * METRICS_TOKEN or METRICS_ALLOW).
 */
export function operatorRoutes(ctx: ServiceContext) {
  return new Elysia()
    .get("/healthz", () => json(200, { status: "ok" }))
    .get("/readyz", async () => {
      const state = await readiness(ctx);
      return json(state.ready ? 200 : 503, state);
    })
    .get("/metrics", async ({ request, server }) => {
      const ip = clientIp(request, server, ctx.config.trustProxy);
      const access = metricsAccess(ctx.config, request.headers.get("authorization"), ip);
      if (access === "off") return notFoundReply(request.method, "/metrics");
      if (access === "refused") return json(401, failure("a valid METRICS_TOKEN bearer token is required"));
      const { text, contentType } = await ctx.relay.metrics.scrape();
      return new Response(text, { headers: { "content-type": contentType } });
    });
}
