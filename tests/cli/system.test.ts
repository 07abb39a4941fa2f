import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import type { Command } from "commander";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildProgram } from "../../src/cli/program";
import { VERSION } from "../../src/shared/version";
import { allowSlowTests, cliDatabase, oneLineError, runCli, type CliDatabase } from "./support";

allowSlowTests();

/** Every command and subcommand, each loaded in full. */
async function everyCommand(): Promise<Command[]> {
  const top = await buildProgram([]);
  const all: Command[] = [];
  for (const command of top.commands) {
    if (command.name() === "help") continue;
    const full = (await buildProgram([command.name()])).commands.find((c) => c.name() === command.name())!;
    all.push(full, ...full.commands);
  }
  return all;
}

function helpOf(command: Command): string {
  let text = "";
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
}

describe("every command has --help with an example", () => {
  test("each command and subcommand's help ends with an example of itself", async () => {
    const commands = await everyCommand();
    expect(commands.length).toBeGreaterThan(45);
    for (const command of commands) {
      const help = helpOf(command);
      const path = [command.parent?.name() === "tollgate" ? "" : command.parent?.name(), command.name()]
        .filter(Boolean)
        .join(" ");
      const examples = help.split(/\nExamples?:\n/)[1] ?? "";
      expect(examples, path).toContain(`tollgate ${path}`);
    }
  });

  test("--help exits 0 from a subprocess", async () => {
    const db = await cliDatabase({ root: false });
    const result = await db.run(["user", "add", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("tollgate user add alice");
    db.drop();
  });
});

describe("version, usage errors and exit codes", () => {
  let db: CliDatabase;
  beforeAll(async () => (db = await cliDatabase({ root: false })));
  afterAll(() => db.drop());

  test("version and --version print the version", async () => {
    for (const args of [["version"], ["--version"]]) {
      const result = await db.run(args);
      expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
    }
  });

  test("a usage error exits 2 with one line on stderr", async () => {
    for (const args of [
      ["bogus"],
      ["user", "list", "--page", "x"],
      ["user", "show"],
      ["token", "list"],
      ["user", "list", "--nope"],
    ]) {
      const result = await db.run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(oneLineError(result)).toStartWith("error: ");
    }
  });

  test("a group without a subcommand shows its help and exits 2", async () => {
    const result = await db.run(["channel"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: tollgate channel");
  });

  test("without a root user, commands that act as root refuse with exit 1; those that need no actor work", async () => {
    const refused = await db.run(["user", "list"]);
    expect(refused.code).toBe(1);
    expect(oneLineError(refused)).toBe("error: no root user yet: run the server's setup or set INITIAL_ROOT_PASSWORD");
    expect((await db.run(["option", "get", "SystemName"])).stdout).toBe("Tollgate\n");
  });
});

describe("migrate", () => {
  test("applies the migrations of a new database and prints them, then says up to date", async () => {
    const db = await cliDatabase({ root: false });
    const fresh = { SQLITE_PATH: join(db.dir, "new.db") };
    const first = await runCli(["migrate"], fresh, db.dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toStartWith("applied 001-foundation\n");
    const second = await runCli(["migrate"], fresh, db.dir);
    expect(second).toEqual({ code: 0, stdout: "up to date\n", stderr: "" });
    db.drop();
  });
});

describe("backup", () => {
  let db: CliDatabase;
  beforeAll(async () => (db = await cliDatabase()));
  afterAll(() => db.drop());

  test("writes a copy of the SQLite database that opens with the same rows", async () => {
    const target = join(db.dir, "copy.db");
    const result = await db.run(["backup", target]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("backed up");
    const copy = new Database(target, { readonly: true });
    expect(copy.query("SELECT username FROM users").all()).toEqual([{ username: "root" }]);
    copy.close();
    expect(existsSync(`${target}.partial-${process.pid}`)).toBe(false);
  });

  test("refuses to overwrite a file unless --force", async () => {
    const target = join(db.dir, "taken.db");
    writeFileSync(target, "keep me");
    const refused = await db.run(["backup", target]);
    expect(refused.code).toBe(1);
    expect(oneLineError(refused)).toContain("already exists (--force replaces it)");
    expect(await Bun.file(target).text()).toBe("keep me");
    expect((await db.run(["backup", target, "--force"])).code).toBe(0);
    expect((await Bun.file(target).text()).startsWith("SQLite format 3")).toBe(true);
  });

  test("refuses PostgreSQL and MySQL with advice", async () => {
    const pg = await runCli(["backup", join(db.dir, "x.db")], { SQL_DSN: "postgres://u@127.0.0.1:1/x" }, db.dir);
    expect(pg.code).toBe(1);
    expect(oneLineError(pg)).toContain("use pg_dump");
    const my = await runCli(["backup", join(db.dir, "x.db")], { SQL_DSN: "mysql://u@127.0.0.1:1/x" }, db.dir);
    expect(oneLineError(my)).toContain("use mysqldump");
  });
});
