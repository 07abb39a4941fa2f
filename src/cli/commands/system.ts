import type { Command } from "commander";
import { VERSION } from "../../shared/version";
import { sub } from "../define";
import { action, integer, report, say } from "../output";
import { progress } from "../progress";

/** The server's configuration; loaded on use, so `--version` and `--help` stay quick. */
const cliConfig = async () => (await import("../context")).cliConfig();

async function migrateNow(): Promise<void> {
  const { migrateDatabase } = await import("../../service/database/migrate");
  const applied = await migrateDatabase(await cliConfig());
  say(applied.length ? applied.map((name) => `applied ${name}`).join("\n") : "up to date");
}

async function backupNow(file: string, force: boolean): Promise<void> {
  const { backupDatabase } = await import("../../service/database/backup");
  const bar = progress("backup");
  const started = performance.now();
  try {
    const { source, target, bytes } = await backupDatabase(await cliConfig(), { file, force, onProgress: bar.update });
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
      await serve(flags).catch((error) => {
        report(error);
        process.exit(process.exitCode);
      });
    });

  sub(program, "version", "print the version", "tollgate version").action(() => say(VERSION));

  sub(
    program,
    "migrate",
    "apply pending database migrations and print what was applied",
    "SQLITE_PATH=/data/tollgate.db tollgate migrate",
  ).action(action(migrateNow));

  sub(
    program,
    "backup <file>",
    "write a consistent copy of the SQLite database while the server runs (PostgreSQL/MySQL: use pg_dump/mysqldump)",
    "tollgate backup /backups/tollgate-$(date +%F).db",
  )
    .option("--force", "replace the file if it exists")
    .action(action(async (file: string, flags: { force?: boolean }) => backupNow(file, Boolean(flags.force))));
}
