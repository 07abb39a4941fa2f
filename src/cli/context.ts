import { actingRoot } from "../service/accounts/acting-root";
import { bootstrapRoot } from "../service/accounts/setup";
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
 * The service context a server would open (database, migrations, caches), with the root account created from
 * INITIAL_ROOT_PASSWORD on a fresh database as `serve` does, so a CLI command can be an install's first.
 */
export async function openCliService(): Promise<ServiceContext> {
  const ctx = await openServiceContext(cliConfig());
  serveChannelTypes(SERVED_TYPES);
  try {
    await bootstrapRoot(ctx);
  } catch (error) {
    await ctx.close();
    throw error;
  }
  return ctx;
}

/**
 * Runs `work` on openCliService's context and closes it, so queued writes are flushed and the change stamps that
 * tell running servers are written.
 */
export async function withService<T>(work: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  const ctx = await openCliService();
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}

/** withService, with the acting root user. */
export const asRoot = <T>(work: (ctx: ServiceContext, root: UserRow) => Promise<T>): Promise<T> =>
  withService(async (ctx) => work(ctx, await actingRoot(ctx)));
