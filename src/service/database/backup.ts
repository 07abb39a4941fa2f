import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Config } from "../config";
import { refuse } from "../errors";

export interface BackupRequest {
  /** Where the copy goes; relative to the working directory. */
  file: string;
  /** Replace the file if it exists. */
  force: boolean;
  onProgress?: (written: number, total: number) => void;
}

export interface BackupDone {
  source: string;
  target: string;
  bytes: number;
}

/**
 * A consistent copy of the configured SQLite database, taken while a server may be writing to it. Refused,
 * changing nothing, for PostgreSQL and MySQL (their own dump tools do this), for a missing database, for a
 * target that is the database itself, and for an existing target unless `force`.
 */
export async function backupDatabase(config: Config, request: BackupRequest): Promise<BackupDone> {
  if (config.sqlDsn) {
    const tool = /^mysql|^mariadb/i.test(config.sqlDsn) ? "mysqldump --single-transaction" : "pg_dump";
    refuse(`backup copies the SQLite file only; for this database use ${tool}`);
  }
  const source = resolve(config.sqlitePath);
  const target = resolve(request.file);
  if (!existsSync(source)) refuse(`no database at ${source}`);
  if (source === target) refuse("the backup cannot overwrite the database itself");
  if (existsSync(target) && !request.force) refuse(`${request.file} already exists (--force replaces it)`);
  const { backupSqlite } = await import("../../db/backup");
  const bytes = await backupSqlite(source, target, request.onProgress);
  return { source, target, bytes };
}
