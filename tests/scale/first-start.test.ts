import { afterEach, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { answers, spawnInstance, type Instance } from "../support/instances";

let running: Instance[] = [];
let database: TestDatabase | undefined;
afterEach(async () => {
  for (const instance of running) instance.process.kill("SIGKILL");
  await Promise.all(running.map((i) => i.exited));
  running = [];
  await database?.drop();
  database = undefined;
});

const start = (env: Record<string, string>) => {
  const instance = spawnInstance(env);
  running.push(instance);
  return instance;
};

describe.each(["postgres", "mysql"] as const)("three instances started together on an empty %s database", (dialect) => {
  test("all three come up, and exactly one root account is created from INITIAL_ROOT_PASSWORD", async () => {
    database = await createTestDatabase(dialect);
    const instances = [0, 1, 2].map(() => start({ SQL_DSN: database!.dsn }));
    const up = await Promise.all(instances.map((i) => answers(i)));
    expect(up, instances.map((i) => i.output()).join("\n---\n")).toEqual([true, true, true]);
    const sql = new SQL({ url: database.dsn, max: 1 });
    const roots = await sql.unsafe("SELECT username FROM users WHERE role = 100");
    await sql.close();
    expect(roots.map((r: { username: string }) => r.username)).toEqual(["root"]);
    const said = instances.map((i) => i.output());
    expect(said.filter((text) => text.includes("Created the root account"))).toHaveLength(1);
    for (const text of said) expect(text).not.toContain("already initialized");
  }, 60_000);
});

describe("a start that cannot succeed", () => {
  test("Redis unreachable: one clear line, a non-zero exit, within the Redis timeout and no connection left", async () => {
    database = await createTestDatabase("postgres");
    const instance = start({
      SQL_DSN: database.dsn,
      REDIS_CONN_STRING: "redis://127.0.0.1:1",
      REDIS_TIMEOUT_MS: "1000",
    });
    const code = await Promise.race([instance.exited, Bun.sleep(20_000).then(() => "still running")]);
    expect(code).toBe(1);
    const errors = instance
      .output()
      .trim()
      .split("\n")
      .filter((line) => line.startsWith("error:"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("Redis at 127.0.0.1:1 (REDIS_CONN_STRING) is unreachable");
    const name = new URL(database.dsn).pathname.slice(1);
    const sql = new SQL({ url: database.dsn.replace(`/${name}`, "/postgres"), max: 1 });
    const [{ n }] = await sql.unsafe(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${name}'`);
    await sql.close();
    expect(n).toBe(0);
  }, 60_000);

  test("the database unreachable: one clear line and a non-zero exit, not a process left hanging", async () => {
    const instance = start({ SQL_DSN: "postgres://postgres@127.0.0.1:1/none" });
    const code = await Promise.race([instance.exited, Bun.sleep(40_000).then(() => "still running")]);
    expect(code).toBe(1);
    const lines = instance.output().trim().split("\n");
    expect(lines.filter((line) => line.startsWith("error:"))).toHaveLength(1);
    expect(instance.output()).not.toContain("    at ");
  }, 60_000);
});
