import { expect, setDefaultTimeout } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootstrapRoot } from "../../src/service/accounts/setup";
import { loadConfig } from "../../src/service/config";
import { openServiceContext } from "../../src/service/context";

/** Each CLI run is a fresh process (a few hundred ms on a busy machine) and a test runs several: call in each file. */
export const allowSlowTests = () => setDefaultTimeout(60_000);

export const ROOT_DIR = join(import.meta.dir, "../..");
export const ROOT_PASSWORD = "root-pass-1234";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliDatabase {
  dir: string;
  /** The environment the CLI runs with: this database, no INITIAL_ROOT_PASSWORD. */
  env: Record<string, string>;
  /** Runs `bun src/main.ts ...args` (stdin optional); never throws on a non-zero exit. */
  run(args: string[], stdin?: string): Promise<CliResult>;
  /** run, expecting exit 0, answering the parsed JSON of stdout. */
  json<T = any>(args: string[]): Promise<T>;
  drop(): void;
}

/** The environment of a CLI run, without the test process's own database or root settings. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !["INITIAL_ROOT_PASSWORD", "SQL_DSN", "SQLITE_PATH", "REDIS_CONN_STRING"].includes(key))
      env[key] = value;
  }
  return env;
}

export async function runCli(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  stdin?: string,
): Promise<CliResult> {
  const child = Bun.spawn({
    cmd: ["bun", join(ROOT_DIR, "src/main.ts"), ...args],
    cwd,
    env: { ...baseEnv(), ...env },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

/**
 * A fresh SQLite database in a temp dir; with `root`, the root account is created through the service layer
 * (INITIAL_ROOT_PASSWORD, as the server's start does), never through the CLI.
 */
export async function cliDatabase(
  options: { root?: boolean; env?: Record<string, string> } = {},
): Promise<CliDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "tollgate-cli-"));
  const env = { SQLITE_PATH: join(dir, "tollgate.db"), ...options.env };
  if (options.root ?? true) {
    const ctx = await openServiceContext(loadConfig({ ...env, INITIAL_ROOT_PASSWORD: ROOT_PASSWORD }));
    await bootstrapRoot(ctx);
    await ctx.close();
  }
  const run = (args: string[], stdin?: string) => runCli(args, env, dir, stdin);
  return {
    dir,
    env,
    run,
    async json(args) {
      const result = await run([...args, "--json"]);
      if (result.code !== 0) throw new Error(`tollgate ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
      return JSON.parse(result.stdout);
    },
    drop: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One line on stderr starting "error:", and nothing else. */
export function oneLineError(result: CliResult): string {
  const lines = result.stderr.trimEnd().split("\n");
  if (lines.length !== 1 || !lines[0]!.startsWith("error: "))
    throw new Error(`expected one error line, got: ${result.stderr}`);
  return lines[0]!;
}

/** The command exits `code` (1: refused) with exactly "error: <message>" on stderr. */
export async function expectRefusal(db: CliDatabase, args: string[], message: string, code = 1): Promise<void> {
  const result = await db.run(args);
  expect(result.code, args.join(" ")).toBe(code);
  expect(oneLineError(result)).toBe(`error: ${message}`);
}
