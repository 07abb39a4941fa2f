import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allowSlowTests, cliDatabase, expectRefusal, runCli, type CliDatabase } from "./support";

allowSlowTests();

let db: CliDatabase;
let elsewhere: string;
beforeAll(async () => {
  db = await cliDatabase();
  elsewhere = mkdtempSync(join(tmpdir(), "tollgate-key-"));
});
afterAll(() => {
  db.drop();
  rmSync(elsewhere, { recursive: true, force: true });
});

describe("tollgate secrets move-key", () => {
  test("moves the key file out of the data folder; later runs need SECRET_KEY_FILE, and without it refuse to start", async () => {
    const beside = join(db.dir, "tollgate.key");
    const key = readFileSync(beside, "utf8");
    const target = join(elsewhere, "tollgate.key");
    const moved = await db.run(["secrets", "move-key", "--to", target]);
    expect(moved).toMatchObject({ code: 0, stderr: "" });
    expect(moved.stdout).toBe(
      `moved the secret key to ${target}; set SECRET_KEY_FILE=${target} for the server and the CLI (every instance sharing this database needs this key)\n`,
    );
    expect(existsSync(beside)).toBe(false);
    expect(readFileSync(target, "utf8")).toBe(key);
    expect(statSync(target).mode & 0o777).toBe(0o600);

    const without = await db.run(["user", "list", "--json"]);
    expect(without.code).toBe(1);
    expect(without.stderr).toStartWith(
      "error: cannot decrypt channel keys: the secret key differs from the one that encrypted them: there is no key file at",
    );
    expect(existsSync(beside)).toBe(false);
    expect((await runCli(["user", "list", "--json"], { ...db.env, SECRET_KEY_FILE: target }, db.dir)).code).toBe(0);
  });

  test("refuses when there is no key file to move, or when the key is SESSION_SECRET", async () => {
    await expectRefusal(
      db,
      ["secrets", "move-key", "--to", join(elsewhere, "other")],
      `there is no secret key file at ${join(db.dir, "tollgate.key")}`,
    );
    const configured = await runCli(
      ["secrets", "move-key", "--to", join(elsewhere, "other")],
      { ...db.env, SESSION_SECRET: "x".repeat(40) },
      db.dir,
    );
    expect(configured).toMatchObject({
      code: 1,
      stderr: "error: the secret key is SESSION_SECRET here: there is no key file to move\n",
    });
  });
});
