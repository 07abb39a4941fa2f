import { describe, expect, test } from "bun:test";
import { spawn } from "bun";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { backupSqlite } from "../../src/db/backup";
import { ApiClient } from "../support/client";
import { SERVE_MODEL, SERVE_ROOT_PASSWORD, useServeFixture } from "../support/serve-process";

const CHANNEL_KEY = "sk-upstream-PLAINTEXT-7777";
const SMTP_TOKEN = "smtp-PLAINTEXT-5555";

const f = useServeFixture("tollgate-secrets-");
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Everything a copy of the data folder would give away: the SQLite file with its WAL. */
const databaseBytes = () =>
  ["", "-wal"]
    .map((suffix) => f.dbPath + suffix)
    .filter(existsSync)
    .map((path) => readFileSync(path).toString("latin1"))
    .join("");

describe("the files of a running gateway", () => {
  test("the database, its WAL and shared memory, the key file and a backup are readable by their owner alone; no secret is in them in plaintext", async () => {
    const server = await f.start();
    const root = new ApiClient(server.url);
    await root.login("root", SERVE_ROOT_PASSWORD);
    await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [SERVE_MODEL]: 1 }) });
    await root.put("/api/option/", { key: "SMTPToken", value: SMTP_TOKEN });
    const channel = {
      type: 1,
      name: "fake",
      key: CHANNEL_KEY,
      base_url: f.fake.url,
      models: SERVE_MODEL,
      group: "default",
    };
    expect((await root.post("/api/channel/", channel)).body.success).toBe(true);
    const key = (await root.post("/api/token/", { name: "k", unlimited_quota: true })).body.data.keys[0];
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: SERVE_MODEL, messages: [{ role: "user", content: "hi" }] });
    expect(f.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CHANNEL_KEY}`);

    for (const suffix of ["", "-wal", "-shm"]) expect(modeOf(f.dbPath + suffix)).toBe("600");
    expect(modeOf(join(f.dir, "tollgate.key"))).toBe("600");
    const backup = join(f.dir, "backup.db");
    await backupSqlite(f.dbPath, backup);
    expect(modeOf(backup)).toBe("600");

    const bytes = databaseBytes() + readFileSync(backup).toString("latin1");
    expect(bytes).toContain("enc:v1:");
    expect(bytes).not.toContain("PLAINTEXT");
  }, 30_000);

  test("a start with another key than the one that encrypted the database fails with a clear message", async () => {
    const first = await f.start();
    first.process.kill("SIGTERM");
    await first.process.exited;
    const wrong = spawn({
      cmd: ["bun", join(import.meta.dir, "../../src/main.ts"), "serve"],
      cwd: f.dir,
      env: {
        ...process.env,
        PORT: "0",
        SQLITE_PATH: f.dbPath,
        SESSION_SECRET: "some-other-secret-than-the-key-file-0001",
      },
      stdout: "ignore",
      stderr: "pipe",
    });
    const guard = setTimeout(() => wrong.kill("SIGKILL"), 15_000);
    const [code, stderr] = await Promise.all([wrong.exited, new Response(wrong.stderr).text()]).finally(() =>
      clearTimeout(guard),
    );
    expect(code).toBe(1);
    expect(stderr).toBe(
      "error: cannot decrypt channel keys: the secret key differs from the one that encrypted them (the key of SESSION_SECRET)\n",
    );
  }, 30_000);
});
