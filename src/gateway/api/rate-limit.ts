import type { Server } from "bun";
import type { ServiceContext } from "../../service/context";
import { ServiceError } from "../../service/errors";
import { clientIp } from "../http/client-ip";

export const TOO_MANY_REQUESTS = "too many requests, please try again later";

/** Login, register and setup: a per-address window (CRITICAL_RATE_LIMIT per CRITICAL_RATE_LIMIT_DURATION). */
export async function limitCritical(ctx: ServiceContext, request: Request, server: Server<unknown> | null): Promise<void> {
  const ip = clientIp(request, server, ctx.config.trustProxy);
  if (!(await ctx.criticalLimiter.hit(`critical:${ip}`))) throw new ServiceError(TOO_MANY_REQUESTS, 429);
}
