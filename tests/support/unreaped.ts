import { spawn, type Subprocess } from "bun";
import { readFileSync } from "node:fs";

/** A process started under a parent that never reaps it: once it dies, its pid stays taken by a zombie. */
export interface Unreaped {
  /** The process's own pid. */
  pid: number;
  /** The parent (`sleep`, which never waits for children); killing it lets the zombie go. */
  parent: Subprocess;
}

/** Starts `cmd` (its output discarded) as the child of a shell that then becomes `sleep`, so nothing ever reaps it. */
export async function spawnUnreaped(
  cmd: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<Unreaped> {
  const parent = spawn({
    cmd: ["sh", "-c", '"$@" >/dev/null & echo $!; exec sleep 3600', "sh", ...cmd],
    cwd: options.cwd,
    env: options.env,
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = parent.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the unreaping parent did not start");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { pid: Number(text.trim()), parent };
}

/** The state letter of process `pid` (Z: a zombie), or undefined when there is none. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** Waits until `pid` is a zombie (dead, its pid still taken). */
export async function untilZombie(pid: number): Promise<void> {
  for (let i = 0; i < 500 && processState(pid) !== "Z"; i++) await Bun.sleep(10);
  if (processState(pid) !== "Z") throw new Error(`process ${pid} is not a zombie (state ${processState(pid)})`);
}
