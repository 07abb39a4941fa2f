import type { Server } from "bun";
import type { ServiceContext } from "../../service/context";
import { ServiceError } from "../../service/errors";
import type { LimitedAction } from "../../service/limits/settings";
import { clientIp } from "../http/client-ip";

export const TOO_MANY_REQUESTS = "too many requests, please try again later";

/** Counts a request of `action` against the client address's window for it (see limits/settings.ts); 429 beyond. */
export async function limitPerAddress(
  ctx: ServiceContext,
  action: LimitedAction,
  request: Request,
  server: Server<unknown> | null,
): Promise<void> {
  if (!(await ctx.addressLimits.hit(action, clientIp(request, server, ctx.config.trustProxy))))
    throw new ServiceError(TOO_MANY_REQUESTS, 429);
}
