import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { bootstrapRoot } from "../src/service/accounts/setup";
import { loadConfig } from "../src/service/config";
import { openServiceContext } from "../src/service/context";
import { median, ROOT } from "./support";

const CHANNELS = 1000;
const COMPILED = join(ROOT, "dist/tollgate");

/** A file declaring `count` channels, as an operator would keep one. */
function channelsFile(count: number): string {
  const lines = ["version: 1", "channels:"];
  for (let i = 0; i < count; i++) {
    lines.push(
      `  - { name: bench-${i}, type: OpenAI, key: sk-bench-${i}, models: [gpt-4o, gpt-4o-mini], groups: [default], priority: ${i % 5}, weight: 1 }`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A fresh SQLite database with its root account (created the way the server's start creates it). */
async function freshDatabase(dir: string): Promise<string> {
  const path = join(dir, `bench-${Math.random().toString(36).slice(2)}.db`);
  const ctx = await openServiceContext(loadConfig({ SQLITE_PATH: path, INITIAL_ROOT_PASSWORD: "bench-root-pass" }));
  await bootstrapRoot(ctx);
  await ctx.close();
  return path;
}

/** Wall time of one CLI run, process start to exit, in ms. */
async function timed(cmd: string[], env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const proc = Bun.spawn({ cmd, env: { ...process.env, ...env }, stdout: "ignore", stderr: "inherit" });
  if ((await proc.exited) !== 0) throw new Error(`${cmd.join(" ")} failed`);
  return performance.now() - started;
}

/** `tollgate apply` of 1000 channels on a fresh SQLite file (median of 3), from source and compiled. */
async function applyThousand(dir: string, command: string[]): Promise<number> {
  const file = join(dir, "channels.yaml");
  writeFileSync(file, channelsFile(CHANNELS));
  const times: number[] = [];
  for (let i = 0; i < 3; i++)
    times.push(await timed([...command, "apply", "-f", file], { SQLITE_PATH: await freshDatabase(dir) }));
  return median(times);
}

export async function cliBench(): Promise<void> {
  console.log(`\nCLI (issue #7 §5); load average at start: ${loadavg()[0]!.toFixed(2)}`);
  const dir = mkdtempSync(join(tmpdir(), "tollgate-bench-cli-"));
  try {
    const source = ["bun", join(ROOT, "src/main.ts")];
    const fromSource = await applyThousand(dir, source);
    console.log(
      `tollgate apply of ${CHANNELS} channels, fresh SQLite, from source: ${(fromSource / 1000).toFixed(2)} s  [target <= 5 s]`,
    );
    if (existsSync(COMPILED)) {
      const compiled = await applyThousand(dir, [COMPILED]);
      console.log(
        `tollgate apply of ${CHANNELS} channels, fresh SQLite, dist/tollgate: ${(compiled / 1000).toFixed(2)} s  [target <= 5 s]`,
      );
    }
    const versions: number[] = [];
    for (let i = 0; i < 7; i++) versions.push(await timed([...source, "--version"]));
    console.log(`bun src/main.ts --version: ${median(versions).toFixed(0)} ms (median of 7)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
