import { afterEach, describe, expect, test } from "bun:test";
import { spawn, type Subprocess } from "bun";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HEAP_OPTIONS } from "../../src/server/heap-options";
import { allowSlowTests, ROOT_DIR, ROOT_PASSWORD } from "./support";
import { serving } from "../support/wait-for";

allowSlowTests();

/** The environment the process runs with now (after any restart of its own), from /proc. */
const environmentOf = (pid: number) =>
  Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );

/** An option's value as the engine lists it, as a number ("false" and "true" as 0 and 1). */
const asNumber = (text: string | undefined) => (text === "false" ? 0 : text === "true" ? 1 : Number(text));

let server: Subprocess | undefined;
let dir = "";
afterEach(() => {
  server?.kill();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function serve(env: Record<string, string> = {}): Promise<number> {
  dir = mkdtempSync(join(tmpdir(), "tollgate-heap-"));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const started = spawn({
    cmd: ["bun", join(ROOT_DIR, "src/main.ts"), "serve"],
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      ...env,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  server = started;
  if (await serving(`http://127.0.0.1:${port}`, () => started.exitCode !== null)) return started.pid;
  throw new Error("the server did not start");
}

describe("the engine's heap settings of a server", () => {
  test("serve runs with them, in the process it was started as", async () => {
    const pid = await serve();
    expect(environmentOf(pid)).toMatchObject(HEAP_OPTIONS);
  });

  test("the engine knows each of them and takes its value", async () => {
    const engine = spawn({
      cmd: ["bun", "-e", "0"],
      env: { PATH: process.env.PATH ?? "", ...HEAP_OPTIONS, BUN_JSC_dumpOptions: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err] = await Promise.all([new Response(engine.stdout).text(), new Response(engine.stderr).text()]);
    expect(await engine.exited).toBe(0);
    // The engine lists the options set away from their defaults, one a line: "   name=value (default: ...)".
    const modified = Object.fromEntries(
      [...(out + err).matchAll(/^\s+(\w+)=(\S+) \(default:/gm)].map(([, name, value]) => [name, value]),
    );
    for (const [variable, value] of Object.entries(HEAP_OPTIONS)) {
      const name = variable.slice("BUN_JSC_".length);
      expect(asNumber(modified[name])).toBe(Number(value));
    }
  });

  test("an operator's own setting stands, and no other is added", async () => {
    const pid = await serve({ BUN_JSC_heapGrowthMaxIncrease: "2" });
    const env = environmentOf(pid);
    expect(env.BUN_JSC_heapGrowthMaxIncrease).toBe("2");
    expect(Object.keys(env).filter((name) => name.startsWith("BUN_JSC_"))).toEqual(["BUN_JSC_heapGrowthMaxIncrease"]);
  });
});
