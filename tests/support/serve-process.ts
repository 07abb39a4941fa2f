import { spawn, type Subprocess } from "bun";
import { join } from "node:path";
import OpenAI from "openai";
import { ApiClient } from "./client";

const ROOT = join(import.meta.dir, "../..");
export const SERVE_ROOT_PASSWORD = "root-pass-1234";
export const SERVE_MODEL = "stop-model";

export interface ServeProcess {
  url: string;
  process: Subprocess;
}

/** A real `serve` process (from source) on SQLite file `dbPath`, started in `dir` with `env` added. */
export async function startServeProcess(dir: string, dbPath: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const url = `http://127.0.0.1:${port}`;
  const server = spawn({
    cmd: ["bun", join(ROOT, "src/main.ts"), "serve"],
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SQLITE_PATH: dbPath, INITIAL_ROOT_PASSWORD: SERVE_ROOT_PASSWORD, ...env },
    stdout: "ignore",
    stderr: "inherit",
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/api/status`)).ok) return { url, process: server };
    } catch {}
    await Bun.sleep(25);
  }
  server.kill("SIGKILL");
  throw new Error("server did not start");
}

export const chatCalls = (client: OpenAI, n: number) =>
  Promise.all(Array.from({ length: n }, () => client.chat.completions.create({ model: SERVE_MODEL, messages: [{ role: "user", content: "hi" }] })));

/** Prices SERVE_MODEL, adds a channel to `upstreamUrl` and makes `calls` concurrent chat calls with a new token. */
export async function relayThrough(url: string, upstreamUrl: string, calls: number): Promise<{ client: OpenAI; key: string }> {
  const root = new ApiClient(url);
  await root.login("root", SERVE_ROOT_PASSWORD);
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [SERVE_MODEL]: 1 }) });
  await root.post("/api/channel/", { type: 1, name: "fake", key: "sk-x", base_url: upstreamUrl, models: SERVE_MODEL, group: "default" });
  const key = (await root.post("/api/token/", { name: "k", unlimited_quota: true })).body.data.keys[0];
  const client = new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
  await chatCalls(client, calls);
  return { client, key };
}
