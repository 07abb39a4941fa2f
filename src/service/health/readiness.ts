import { pendingMigrationCount } from "../../db/migrations";
import type { ServiceContext } from "../context";

/** How long a readiness probe waits for the database before it counts as down. */
const DATABASE_PROBE_MS = 2000;

export interface Readiness {
  ready: boolean;
  /** The database answered, within the bound. */
  database: boolean;
  /** Every known migration is applied. */
  migrations: boolean;
  /** Redis answered a PING; null without Redis. */
  redis: boolean | null;
  /** The instance is stopping (SIGTERM): a load balancer should send it nothing new. */
  draining: boolean;
}

async function databaseState(ctx: ServiceContext): Promise<{ database: boolean; migrations: boolean }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), DATABASE_PROBE_MS);
  });
  const pending = await Promise.race([pendingMigrationCount(ctx.db).catch(() => undefined), late]);
  clearTimeout(timer);
  return { database: pending !== undefined, migrations: pending === 0 };
}

/** Whether this instance should be sent calls: database and Redis reachable, migrations applied, not stopping. */
export async function readiness(ctx: ServiceContext): Promise<Readiness> {
  const [{ database, migrations }, redis] = await Promise.all([
    databaseState(ctx),
    ctx.redis ? ctx.redis.reachable() : null,
  ]);
  const draining = ctx.lifecycle.draining;
  return { ready: database && migrations && redis !== false && !draining, database, migrations, redis, draining };
}
