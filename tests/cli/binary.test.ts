import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync, type Subprocess } from "bun";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { HEAP_OPTIONS } from "../../src/server/heap-options";
import { VERSION } from "../../src/shared/version";
import { ApiClient } from "../support/client";
import { startFakeUpstream } from "../support/fake-upstream";
import { serving } from "../support/wait-for";

const BINARY = join(import.meta.dir, "../../dist/tollgate");

describe("the single executable (bun run build → dist/tollgate)", () => {
  let dir: string;
  let server: Subprocess;
  let url: string;
  let stderr = "";
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
        UPSTREAM_ALLOW_PRIVATE: process.env.UPSTREAM_ALLOW_PRIVATE ?? "",
      },
      stdout: "ignore",
      stderr: "pipe",
    });
    void (async () => {
      for await (const chunk of server.stderr as ReadableStream<Uint8Array>) {
        const text = new TextDecoder().decode(chunk);
        stderr += text;
        process.stderr.write(text);
      }
    })();
    if (!(await serving(url, () => server.exitCode !== null))) throw new Error("the binary did not start");
  });
  afterAll(() => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An OpenAI client of the executable with a key for `model`, priced and served by a channel to `upstream`. */
  async function clientOfModel(model: string, upstream: string): Promise<OpenAI> {
    const root = new ApiClient(url);
    await root.login("root", "root-pass-1234");
    await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [model]: 1 }) });
    await root.post("/api/channel/", {
      type: 1,
      name: model,
      key: "sk-x",
      base_url: upstream,
      models: model,
      group: "default",
    });
    const key = (await root.post("/api/token/", { name: model, unlimited_quota: true })).body.data.keys[0];
    return new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
  }

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

  test("a long prompt is counted on the executable's own counting thread (its script is embedded)", async () => {
    const fake = startFakeUpstream();
    try {
      const client = await clientOfModel("long-model", fake.url);
      const workers = () =>
        readdirSync(`/proc/${server.pid}/task`).filter(
          (task) => readFileSync(`/proc/${server.pid}/task/${task}/comm`, "utf8").trim() === "Worker",
        ).length;
      const before = workers();
      const prompt = "the quick brown fox jumps over the lazy dog ".repeat(1000);
      const reply = await client.chat.completions.create({
        model: "long-model",
        messages: [{ role: "user", content: prompt }],
      });
      expect(reply.choices[0]!.message.content).toBeString();
      expect(workers()).toBe(before + 1);
      expect(stderr).not.toContain("[tokens]");
    } finally {
      await fake.stop();
    }
  });

  test("replies without usage are counted on the counting thread, streamed or not", async () => {
    const fake = startFakeUpstream();
    try {
      const client = await clientOfModel("fake-no-usage", fake.url);
      const messages = [{ role: "user" as const, content: "count me" }];
      const whole = await client.chat.completions.create({ model: "fake-no-usage", messages });
      expect(whole.usage).toBeUndefined();
      const stream = await client.chat.completions.create({
        model: "fake-no-usage",
        messages,
        stream: true,
        stream_options: { include_usage: true },
      });
      let counted: OpenAI.CompletionUsage | undefined | null;
      for await (const chunk of stream) counted ??= chunk.usage;
      expect(counted?.completion_tokens).toBeGreaterThan(0);
      expect(counted?.prompt_tokens).toBeGreaterThan(0);
      expect(stderr).not.toContain("[tokens]");
    } finally {
      await fake.stop();
    }
  });

  test("modules loaded on first use are in the executable: a new user's look-alike key, a two-factor setup", async () => {
    const root = new ApiClient(url);
    await root.login("root", "root-pass-1234");
    const created = await root.post("/api/user/", { username: "lazy-module", password: "password123" });
    expect(created.body).toMatchObject({ success: true });
    const lookAlike = await root.post("/api/user/", { username: "LAZY-M0DULE", password: "password123" });
    expect(lookAlike.body.success).toBe(false);
    const setup = await root.post("/api/user/2fa/setup");
    expect(setup.body.data.uri).toStartWith("otpauth://totp/");
  });

  test("unknown API paths still answer JSON 404s", async () => {
    const response = await fetch(`${url}/api/nope`);
    expect(response.status).toBe(404);
    expect((await response.json()).success).toBe(false);
  });
});
