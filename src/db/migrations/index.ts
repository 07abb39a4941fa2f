import type { Migration } from "kysely/migration";
import { Migrator, type MigrationProvider } from "kysely/migration";
import type { Db, DialectName } from "../connect";
import { foundation } from "./001-foundation";
import { relay } from "./002-relay";
import { moneyAndRecords } from "./003-money-and-records";
import { logIndexes } from "./004-log-indexes";

/** Versioned, in order; the same schema on every dialect. Never edit a released step: add one. */
function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    "001-foundation": foundation(dialect),
    "002-relay": relay(dialect),
    "003-money-and-records": moneyAndRecords(dialect),
    "004-log-indexes": logIndexes(dialect),
  };
}

export async function migrate(db: Db): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(db.dialect) };
  const migrator = new Migrator({ db: db.k, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
