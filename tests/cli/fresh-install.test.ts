import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NO_ROOT } from "../../src/service/accounts/acting-root";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases";
import { allowSlowTests, oneLineError, ROOT_PASSWORD, runCli } from "./support";

allowSlowTests();

const FILE = `
version: 1
users:
  - { username: alice, password: alice-pass-1, quota: 5000 }
`;

let database: TestDatabase | undefined;
let dir = "";
afterEach(async () => {
  await database?.drop();
  database = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe.each(DIALECTS)("the CLI as the first command of an install on %s", (dialect) => {
  const fresh = async () => {
    database = await createTestDatabase(dialect);
    dir = mkdtempSync(join(tmpdir(), "tollgate-install-"));
    writeFileSync(join(dir, "tollgate.yaml"), FILE);
    const where: Record<string, string> =
      dialect === "sqlite" ? { SQLITE_PATH: database.sqlitePath } : { SQL_DSN: database.dsn };
    return { ...where, SESSION_SECRET: "the-secret-of-this-install-0123456789" };
  };

  test("apply -f with INITIAL_ROOT_PASSWORD creates root as serve does, then applies the file", async () => {
    const env = await fresh();
    const applied = await runCli(
      ["apply", "-f", "tollgate.yaml"],
      { ...env, INITIAL_ROOT_PASSWORD: ROOT_PASSWORD },
      dir,
    );
    expect(applied.code, applied.stderr).toBe(0);
    const users = await runCli(["user", "list", "--json"], env, dir);
    expect(users.code, users.stderr).toBe(0);
    const listed = JSON.parse(users.stdout).items.map((u: { username: string; role: number }) => [u.username, u.role]);
    expect(listed).toEqual([
      ["alice", 1],
      ["root", 100],
    ]);
  });

  test("without INITIAL_ROOT_PASSWORD it still refuses, naming the setting", async () => {
    const env = await fresh();
    const result = await runCli(["apply", "-f", "tollgate.yaml"], env, dir);
    expect(result.code).toBe(1);
    expect(oneLineError(result)).toBe(`error: ${NO_ROOT}`);
  });
});
