import { findFirstLiveRoot } from "../db/queries/users";
import type { UserRow } from "../db/schema";
import { loadConfig, loadDotEnv, type Config } from "../service/config";
import { openServiceContext, type ServiceContext } from "../service/context";
import { ServiceError } from "../service/errors";
import { Role } from "../shared/constants";

export const NO_ROOT = "no root user yet: run the server's setup or set INITIAL_ROOT_PASSWORD";

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
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}

/** The CLI acts as root on the local database: the first live root account, which must exist. */
export async function rootOf(ctx: ServiceContext): Promise<UserRow> {
  return (await findFirstLiveRoot(ctx.db, Role.Root)) ?? Promise.reject(new ServiceError(NO_ROOT));
}

/** withService, with the acting root user. */
export const asRoot = <T>(work: (ctx: ServiceContext, root: UserRow) => Promise<T>): Promise<T> =>
  withService(async (ctx) => work(ctx, await rootOf(ctx)));
