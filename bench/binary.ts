import { spawnSync } from "bun";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { coldStart } from "./foundation";
import { median, ROOT } from "./support";

const BINARY = join(ROOT, "dist/tollgate");

/** The compiled executable (issue #7 §5): size, `--version` time and `serve` to the first 200. */
export async function binaryBench(): Promise<void> {
  console.log("\nSingle executable (dist/tollgate)");
  if (!existsSync(BINARY)) {
    console.log("  not built: run `bun run build`");
    return;
  }
  console.log(`  size: ${(statSync(BINARY).size / 1024 / 1024).toFixed(1)} MB`);
  const versions: number[] = [];
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    spawnSync({ cmd: [BINARY, "--version"] });
    versions.push(performance.now() - started);
  }
  console.log(`  tollgate --version: ${median(versions).toFixed(1)} ms (median of 9)  [target <= 20 ms]`);
  const serve = await coldStart([BINARY, "serve"]);
  console.log(
    `  serve cold start to first 200 on /api/status, empty SQLite: ${serve.toFixed(1)} ms  [target <= 100 ms]`,
  );
}
