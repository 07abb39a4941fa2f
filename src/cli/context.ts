import { actingRoot } from "../service/accounts/acting-root";
import { loadConfig, loadDotEnv, type Config } from "../service/config";
import { openServiceContext, type ServiceContext } from "../service/context";
import type { UserRow } from "../service/users/directory";
import { serveChannelTypes } from "../service/channels/served-types";
import { SERVED_TYPES } from "../gateway/relay/providers/registry";

/** The configuration of the server, from the same environment (and .env file) the server reads. */
export function cliConfig(): Config {
  loadDotEnv();
  return loadConfig();
}

/**
 * Opens the service context a server would (database, migrations, caches), runs `work`, and closes it, so
 * queued writes are flushed and the change stamps that tell running servers are written.
 */
export async function withService<T>(work: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  const ctx = await openServiceContext(cliConfig());
  serveChannelTypes(SERVED_TYPES);
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}

/** withService, with the acting root user. */
export const asRoot = <T>(work: (ctx: ServiceContext, root: UserRow) => Promise<T>): Promise<T> =>
  withService(async (ctx) => work(ctx, await actingRoot(ctx)));
