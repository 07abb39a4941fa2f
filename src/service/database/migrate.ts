import type { Config } from "../config";

/** Applies the pending migrations to the configured database and answers their names (none: up to date). */
export async function migrateDatabase(config: Config): Promise<string[]> {
  // Loaded on use: the CLI reaches this module at start, and `--version` should not pay for the database code.
  const [{ connect }, { migrate }] = await Promise.all([import("../../db/connect"), import("../../db/migrations")]);
  const db = connect({ dsn: config.sqlDsn, sqlitePath: config.sqlitePath, poolSize: 1 });
  try {
    return await migrate(db);
  } finally {
    await db.close();
  }
}
