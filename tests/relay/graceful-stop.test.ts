import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { spawn } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { ApiClient } from "../support/client";
import { startFakeUpstream } from "../support/fake-upstream";

const ROOT = join(import.meta.dir, "../..");

async function waitUp(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/api/status`)).ok) return;
    } catch {}
    await Bun.sleep(25);
  }
  throw new Error("server did not start");
}

describe("graceful stop", () => {
  test("SIGTERM writes every pending charge and log row before the process exits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tollgate-stop-"));
    const fake = startFakeUpstream();
    const port = 20000 + Math.floor(Math.random() * 20000);
    const url = `http://127.0.0.1:${port}`;
    const dbPath = join(dir, "t.db");
    const server = spawn({
      cmd: ["bun", join(ROOT, "src/main.ts"), "serve"],
      cwd: dir,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SQLITE_PATH: dbPath, INITIAL_ROOT_PASSWORD: "root-pass-1234", BILLING_FLUSH_MS: "600000" },
      stdout: "ignore",
      stderr: "inherit",
    });
    try {
      await waitUp(url);
      const root = new ApiClient(url);
      await root.login("root", "root-pass-1234");
      await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "stop-model": 1 }) });
      await root.post("/api/channel/", { type: 1, name: "fake", key: "sk-x", base_url: fake.url, models: "stop-model", group: "default" });
      const key = (await root.post("/api/token/", { name: "k", unlimited_quota: true })).body.data.keys[0];
      const client = new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
      const calls = 20;
      await Promise.all(Array.from({ length: calls }, () => client.chat.completions.create({ model: "stop-model", messages: [{ role: "user", content: "hi" }] })));
      server.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      const db = new Database(dbPath, { readonly: true });
      const logs = db.query("SELECT count(*) AS n, sum(quota) AS q FROM logs WHERE type = 2").get() as { n: number; q: number };
      const rootRow = db.query("SELECT used_quota, request_count FROM users WHERE username = 'root'").get() as { used_quota: number; request_count: number };
      db.close();
      expect(logs.n).toBe(calls);
      expect(rootRow.request_count).toBe(calls);
      expect(rootRow.used_quota).toBe(logs.q);
    } finally {
      server.kill();
      await fake.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
