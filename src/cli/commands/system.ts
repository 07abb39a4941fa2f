import type { Command } from "commander";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { refuse } from "../../service/errors";
import { VERSION } from "../../shared/version";
import { sub } from "../define";
import { action, integer, say } from "../output";
import { progress } from "../progress";

/** The server's configuration; loaded on use, so `--version` and `--help` stay quick. */
const cliConfig = async () => (await import("../context")).cliConfig();

async function migrateNow(): Promise<void> {
  const [{ connect }, { migrate }] = await Promise.all([import("../../db/connect"), import("../../db/migrations")]);
  const config = await cliConfig();
  const db = connect({ dsn: config.sqlDsn, sqlitePath: config.sqlitePath });
  try {
    const applied = await migrate(db);
    say(applied.length ? applied.map((name) => `applied ${name}`).join("\n") : "up to date");
  } finally {
    await db.close();
  }
}

async function backupNow(file: string, force: boolean): Promise<void> {
  const config = await cliConfig();
  if (config.sqlDsn) {
    const tool = /^mysql|^mariadb/i.test(config.sqlDsn) ? "mysqldump --single-transaction" : "pg_dump";
    refuse(`backup copies the SQLite file only; for this database use ${tool}`);
  }
  const source = resolve(config.sqlitePath);
  const target = resolve(file);
  if (!existsSync(source)) refuse(`no database at ${source}`);
  if (source === target) refuse("the backup cannot overwrite the database itself");
  if (existsSync(target) && !force) refuse(`${file} already exists (--force replaces it)`);
  const { backupSqlite } = await import("../../db/backup");
  const bar = progress("backup");
  const started = performance.now();
  try {
    const bytes = await backupSqlite(source, target, bar.update);
    bar.finish();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    say(`backed up ${source} to ${target} (${(bytes / 1048576).toFixed(1)} MB in ${seconds} s)`);
  } finally {
    bar.finish();
  }
}

/** serve (the default), version, migrate and backup. */
export function systemCommands(program: Command): void {
  program
    .command("serve", { isDefault: true })
    .description("start the HTTP server (the default command)")
    .addHelpText("after", "\nExample:\n  PORT=8080 SQLITE_PATH=/data/tollgate.db tollgate serve")
    .option("-p, --port <port>", "port to listen on (default: PORT or 3000)", integer(0, 65535))
    .action(async (flags: { port?: number }) => {
      const { serve } = await import("../../server/serve");
      await serve(flags);
    });

  sub(program, "version", "print the version", "tollgate version").action(() => say(VERSION));

  sub(program, "migrate", "apply pending database migrations and print what was applied", "SQLITE_PATH=/data/tollgate.db tollgate migrate").action(
    action(migrateNow),
  );

  sub(
    program,
    "backup <file>",
    "write a consistent copy of the SQLite database while the server runs (PostgreSQL/MySQL: use pg_dump/mysqldump)",
    "tollgate backup /backups/tollgate-$(date +%F).db",
  )
    .option("--force", "replace the file if it exists")
    .action(action(async (file: string, flags: { force?: boolean }) => backupNow(file, Boolean(flags.force))));
}
