import { createApp } from "../gateway/app";
import { relayProbe } from "../gateway/relay/probe";
import { taskFetcher } from "../gateway/relay/tasks/task-fetcher";
import { TaskPoller } from "../service/tasks/poller";
import { scheduleRetests } from "../service/relay/channel-tests";
import { checkpointsInBackground } from "../service/database/checkpoints";
import { bootstrapRoot } from "../service/accounts/setup";
import { loadConfig, loadDotEnv } from "../service/config";
import { scheduleLogRetention } from "../service/logs/cleanup";
import { openServiceContext, type ServiceContext } from "../service/context";
import { VERSION } from "../shared/version";

/** How long a failed start waits for its connections to close before it exits anyway. */
const START_FAILURE_CLOSE_MS = 5000;

const closeWithin = (ctx: ServiceContext, ms: number) => Promise.race([ctx.close().catch(() => {}), Bun.sleep(ms)]);

async function listen(ctx: ServiceContext) {
  const checkpoints = await checkpointsInBackground(ctx);
  try {
    const root = await bootstrapRoot(ctx);
    const app = createApp(ctx).listen({ port: ctx.config.port, hostname: process.env.HOST || "0.0.0.0" });
    return { checkpoints, root, app };
  } catch (error) {
    await checkpoints.stop();
    throw error;
  }
}

export interface ServeOptions {
  port?: number;
}

/**
 * Starts the gateway; a SIGTERM or SIGINT stops it gracefully: no new connection is taken, the calls in flight
 * finish and are billed (for up to SHUTDOWN_TIMEOUT seconds; then the connections left are closed), then the database closes.
 */
export async function serve(options: ServeOptions = {}): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (options.port !== undefined) config.port = options.port;
  const ctx = await openServiceContext(config);
  for (const notice of ctx.secretKey.notices) console.warn(notice);
  const { checkpoints, root, app } = await listen(ctx).catch(async (error) => {
    await closeWithin(ctx, START_FAILURE_CLOSE_MS);
    throw error;
  });
  const stopRetests = scheduleRetests(ctx, relayProbe(ctx));
  scheduleLogRetention(ctx);
  const poller = config.updateTask ? new TaskPoller(ctx, taskFetcher(ctx)) : undefined;
  poller?.start();
  const where = ctx.db.dialect === "sqlite" ? config.sqlitePath : ctx.db.dialect;
  console.log(`Tollgate ${VERSION} listening on http://localhost:${app.server?.port} (database: ${where})`);
  if (root === "created") console.log("Created the root account from INITIAL_ROOT_PASSWORD.");
  if (root === "needs-setup") console.log("No root account yet: open the console's /setup page to create it.");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.lifecycle.draining = true;
    console.log(`${signal} received, stopping…`);
    stopRetests();
    await poller?.stop();
    const grace = config.shutdownTimeoutMs;
    const deadline = Date.now() + grace;
    const server = app.server;
    const finished = await Promise.race([app.stop().then(() => true), Bun.sleep(grace).then(() => false)]);
    if (!finished) await server?.stop(true);
    if (!(await ctx.relay.book.callsSettled(deadline - Date.now()))) {
      console.error(`[billing] calls still in flight after SHUTDOWN_TIMEOUT (${grace / 1000} s) are not billed`);
    }
    await checkpoints.stop();
    await ctx.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
