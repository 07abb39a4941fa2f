/**
 * Runs an agent CLI headless as a subprocess in a throwaway home and work folder, with an environment
 * made from scratch (only PATH from ours) so no user config, key or proxy leaks in; the CLIs reach
 * nothing but the loopback addresses their config names.
 */
import { expect } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const BIN = resolve(import.meta.dir, "../../../node_modules/.bin");

/** A CLI gets this long to finish its task; they are slow to start on a busy machine. */
export const CLI_TIMEOUT_MS = 120_000;

/** The note the scripted tool call reads; its marker must come back to the upstream as the tool result. */
export const NOTE_FILE = "note.txt";
export const NOTE_MARKER = "TOLLGATE-ROUND-TRIP-7";
/** What the fake upstream answers once the tool result is in. */
export const FINAL_TEXT = "The note says the tollgate opens at dawn.";

export interface CliSandbox {
  home: string;
  work: string;
  notePath: string;
  remove(): void;
}

export function makeSandbox(): CliSandbox {
  const home = mkdtempSync(join(tmpdir(), "tollgate-agent-"));
  const work = join(home, "work");
  mkdirSync(work);
  const notePath = join(work, NOTE_FILE);
  writeFileSync(notePath, `Remember ${NOTE_MARKER}.\n`);
  return { home, work, notePath, remove: () => rmSync(home, { recursive: true, force: true }) };
}

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  name: "claude" | "codex" | "gemini",
  args: string[],
  sandbox: CliSandbox,
  env: Record<string, string>,
): Promise<CliRun> {
  const child = Bun.spawn([join(BIN, name), ...args], {
    cwd: sandbox.work,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: sandbox.home, NO_COLOR: "1", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: CLI_TIMEOUT_MS,
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, stdout, stderr };
}

/** Exit 0; on failure the assertion shows what the CLI printed. */
export function expectFinished(run: CliRun) {
  expect({ exitCode: run.exitCode, output: run.exitCode ? run.stdout + run.stderr : "" }).toEqual({
    exitCode: 0,
    output: "",
  });
}
