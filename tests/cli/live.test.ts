import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { serving } from "../support/wait-for";
import { allowSlowTests, cliDatabase, ROOT_DIR, type CliDatabase } from "./support";

allowSlowTests();

/** Polls `check` every 25 ms for up to `ms`; answers how long it took to hold, or fails. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await check()) return performance.now() - started;
    await Bun.sleep(25);
  }
  throw new Error(`not seen within ${ms} ms`);
}

let db: CliDatabase;
let url = "";
const systemName = async () =>
  ((await (await fetch(`${url}/api/status`)).json()) as { data: { system_name: string } }).data.system_name;
let fake: FakeUpstream;
let server: Bun.Subprocess;

beforeAll(async () => {
  db = await cliDatabase();
  fake = startFakeUpstream();
  const port = 20000 + Math.floor(Math.random() * 20000);
  url = `http://127.0.0.1:${port}`;
  server = Bun.spawn({
    cmd: ["bun", join(ROOT_DIR, "src/main.ts"), "serve"],
    cwd: db.dir,
    env: { ...process.env, ...db.env, PORT: String(port), HOST: "127.0.0.1", INITIAL_ROOT_PASSWORD: "" },
    stdout: "ignore",
    stderr: "inherit",
  });
  if (!(await serving(url, () => server.exitCode !== null))) throw new Error("the server did not start");
  // The server is busy for a moment after it starts listening; the timings start after.
  await db.run(["option", "set", "SystemName", "Warmed up"]);
  await within(15_000, async () => (await systemName()) === "Warmed up");
});
afterAll(async () => {
  server.kill();
  await server.exited;
  await fake.stop();
  db.drop();
});

describe("a change made by the CLI reaches a running server within a second, without a restart", () => {
  test("an option set by the CLI shows in /api/status", async () => {
    expect((await db.run(["option", "set", "SystemName", "Changed by CLI"])).code).toBe(0);
    expect(await within(1000, async () => (await systemName()) === "Changed by CLI")).toBeLessThan(1000);
  });

  test("a channel disabled by the CLI stops serving in the relay", async () => {
    await db.run(["option", "set", "ModelRatio", '{"live-model": 1}']);
    await db.run([
      "channel",
      "add",
      "--type",
      "1",
      "--name",
      "live",
      "--key",
      "sk-x",
      "--base-url",
      fake.url,
      "--models",
      "live-model",
      "--groups",
      "default",
    ]);
    const key = (await db.run(["token", "add", "--user", "root", "--name", "live", "--unlimited"])).stdout.trim();
    const call = () =>
      fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "live-model", messages: [{ role: "user", content: "hi" }] }),
      });
    await within(1000, async () => (await call()).status === 200);
    expect((await db.run(["channel", "disable", "live"])).code).toBe(0);
    expect(await within(1000, async () => (await call()).status !== 200)).toBeLessThan(1000);
  });

  test("backup copies the database while the server runs", async () => {
    const target = join(db.dir, "live-backup.db");
    expect((await db.run(["backup", target])).code).toBe(0);
    const copy = new Database(target, { readonly: true });
    expect(copy.query("SELECT name FROM channels").all()).toEqual([{ name: "live" }]);
    copy.close();
  });
});
