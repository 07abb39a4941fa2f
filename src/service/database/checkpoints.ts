import { checkpointInBackground, type Checkpointer } from "../../db/checkpointer";
import type { ServiceContext } from "../context";

/** A server's SQLite checkpoints, on a worker thread instead of on commit (nothing for PostgreSQL and MySQL). */
export const checkpointsInBackground = (ctx: ServiceContext): Promise<Checkpointer> => checkpointInBackground(ctx.db);
