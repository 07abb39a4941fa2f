import { afterEach, beforeEach } from "bun:test";
import { spawn, type Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { ApiClient } from "./client";
import { startFakeUpstream, type FakeUpstream } from "./fake-upstream";
import { processState, spawnUnreaped } from "./unreaped";
import { serving } from "./wait-for";

const ROOT = join(import.meta.dir, "../..");
export const SERVE_ROOT_PASSWORD = "root-pass-1234";
export const SERVE_MODEL = "stop-model";

export interface ServeProcess {
  url: string;
  /** The server, or (started `unreaped`) the parent that never reaps it. */
  process: Subprocess;
  /** The server's own pid. */
  pid: number;
}

/**
 * A real `serve` process (from source) on SQLite file `dbPath`, started in `dir` with `env` added; `unreaped`
 * starts it under a parent that never reaps it, so once killed its pid stays taken by a zombie. Ports are below
 * Linux's ephemeral range (so no client socket holds one); a server that exits at start (its port taken by
 * another test's server) is started again on another. `waitMs` is how long a start may take to answer.
 */
export async function startServeProcess(
  dir: string,
  dbPath: string,
  env: Record<string, string> = {},
  unreaped = false,
  waitMs = 20_000,
): Promise<ServeProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    const url = `http://127.0.0.1:${port}`;
    const cmd = ["bun", join(ROOT, "src/main.ts"), "serve"];
    const fullEnv = {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SQLITE_PATH: dbPath,
      INITIAL_ROOT_PASSWORD: SERVE_ROOT_PASSWORD,
      ...env,
    };
    const server = unreaped
      ? await spawnUnreaped(cmd, { cwd: dir, env: fullEnv })
      : { parent: spawn({ cmd, cwd: dir, env: fullEnv, stdout: "ignore", stderr: "inherit" }), pid: 0 };
    const started = { url, process: server.parent, pid: server.pid || server.parent.pid };
    const exited = () => (unreaped ? (processState(started.pid) ?? "Z") === "Z" : started.process.exitCode !== null);
    if (await serving(url, exited, waitMs)) return started;
    const died = exited();
    killServe(started);
    if (!died || attempt === 3) throw new Error("server did not start");
  }
}

/** Kills a `serve` process (and its unreaping parent) for good. */
export function killServe(server: ServeProcess): void {
  // Killed before its parent, while its pid cannot have been reused (nothing reaps it until then).
  if (server.pid !== server.process.pid) {
    try {
      process.kill(server.pid, "SIGKILL");
    } catch {}
  }
  server.process.kill("SIGKILL");
}

export const chatCalls = (client: OpenAI, n: number) =>
  Promise.all(
    Array.from({ length: n }, () =>
      client.chat.completions.create({ model: SERVE_MODEL, messages: [{ role: "user", content: "hi" }] }),
    ),
  );

/** Prices SERVE_MODEL, adds a channel to `upstreamUrl` and makes `calls` concurrent chat calls with a new token. */
export async function relayThrough(
  url: string,
  upstreamUrl: string,
  calls: number,
): Promise<{ client: OpenAI; key: string }> {
  const root = new ApiClient(url);
  await root.login("root", SERVE_ROOT_PASSWORD);
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [SERVE_MODEL]: 1 }) });
  await root.post("/api/channel/", {
    type: 1,
    name: "fake",
    key: "sk-x",
    base_url: upstreamUrl,
    models: SERVE_MODEL,
    group: "default",
  });
  const key = (await root.post("/api/token/", { name: "k", unlimited_quota: true })).body.data.keys[0];
  const client = new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
  await chatCalls(client, calls);
  return { client, key };
}

/** What each test of a file gets: a temp folder with its SQLite path, a fake upstream, and `serve` processes. */
export interface ServeFixture {
  readonly dir: string;
  readonly dbPath: string;
  readonly fake: FakeUpstream;
  /** Starts `serve` on the test's database (see startServeProcess); it is killed after the test. */
  start(env?: Record<string, string>, unreaped?: boolean): Promise<ServeProcess>;
}

/** Registers the per-test set-up and clean-up of a ServeFixture (a new folder and fake for every test). */
export function useServeFixture(prefix: string): ServeFixture {
  let dir = "";
  let fake: FakeUpstream | undefined;
  let servers: ServeProcess[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    fake = startFakeUpstream();
  });
  afterEach(async () => {
    for (const server of servers) killServe(server);
    servers = [];
    await fake?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get dbPath() {
      return join(dir, "t.db");
    },
    get fake() {
      return fake!;
    },
    async start(env = {}, unreaped = false) {
      const server = await startServeProcess(dir, join(dir, "t.db"), env, unreaped);
      servers.push(server);
      return server;
    },
  };
}
