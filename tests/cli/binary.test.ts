import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync, type Subprocess } from "bun";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HEAP_OPTIONS } from "../../src/server/heap-options";
import { VERSION } from "../../src/shared/version";

const BINARY = join(import.meta.dir, "../../dist/tollgate");

describe("the single executable (bun run build → dist/tollgate)", () => {
  let dir: string;
  let server: Subprocess;
  let url: string;
  beforeAll(async () => {
    if (!existsSync(BINARY))
      throw new Error("dist/tollgate is missing: `bun run test` builds it first (bun run build)");
    dir = mkdtempSync(join(tmpdir(), "tollgate-bin-"));
    const port = 20000 + Math.floor(Math.random() * 20000);
    url = `http://127.0.0.1:${port}`;
    server = spawn({
      cmd: [BINARY, "serve"],
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        HOST: "127.0.0.1",
        INITIAL_ROOT_PASSWORD: "root-pass-1234",
      },
      stdout: "ignore",
      stderr: "inherit",
    });
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${url}/api/status`)).ok) return;
      } catch {}
      await Bun.sleep(25);
    }
    throw new Error("the binary did not start");
  });
  afterAll(() => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test("--version prints the version", () => {
    const run = spawnSync({ cmd: [BINARY, "--version"], cwd: dir });
    expect(run.stdout.toString().trim()).toBe(VERSION);
  });

  test("serve runs with the engine's heap settings, restarted in place (the same process)", () => {
    const environ = readFileSync(`/proc/${server.pid}/environ`, "utf8").split("\0");
    for (const [name, value] of Object.entries(HEAP_OPTIONS)) expect(environ).toContain(`${name}=${value}`);
  });

  test("serve answers the API from an empty directory, on a SQLite file it creates there", async () => {
    const status = await (await fetch(`${url}/api/status`)).json();
    expect(status.data).toMatchObject({ version: VERSION, setup: true });
    expect(readdirSync(join(dir, "data"))).toContain("tollgate.db");
  });

  test("the console loads from memory: index.html for client routes, its scripts and styles", async () => {
    const page = await fetch(`${url}/setting?tab=personal`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith(".js"))).toBe(true);
    expect(assets.some((a) => a.endsWith(".css"))).toBe(true);
    for (const asset of assets) {
      const response = await fetch(url + asset);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toContain("immutable");
    }
  });

  test("unknown API paths still answer JSON 404s", async () => {
    const response = await fetch(`${url}/api/nope`);
    expect(response.status).toBe(404);
    expect((await response.json()).success).toBe(false);
  });
});
