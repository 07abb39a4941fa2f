import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createForeignDatabase, type ForeignDatabase } from "../support/foreign-gateway";
import { allowSlowTests, cliDatabase, expectRefusal, type CliDatabase } from "./support";

allowSlowTests();

describe("tollgate import", () => {
  let db: CliDatabase;
  let src: ForeignDatabase;
  beforeAll(async () => {
    [db, src] = await Promise.all([cliDatabase(), createForeignDatabase("sqlite", "one-api", "http://127.0.0.1:9")]);
  });
  afterAll(async () => {
    db.drop();
    await src.database.drop();
  });

  /** `work` on a database of its own, dropped afterwards. */
  const onFreshDatabase = async (work: (fresh: CliDatabase) => Promise<void>) => {
    const fresh = await cliDatabase();
    try {
      await work(fresh);
    } finally {
      fresh.drop();
    }
  };
  const args = (...more: string[]) => ["import", "--from", "one-api", "--dsn", src.dsn, ...more];

  test("--dry-run prints the plan, the balance total and what is not carried, and writes nothing", async () => {
    const result = await db.run(args("--dry-run"));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/create\s+user\s+alice/);
    expect(result.stdout).toMatch(/skip\s+token\s+ancient\s+.*48 letters and digits/);
    expect(result.stdout).toContain(`balance total: source ${src.data.quotaTotal} (used ${src.data.usedTotal})`);
    expect(result.stdout).toContain("not carried: options: SomeRetiredSwitch (Tollgate has no such option)");
    expect(result.stdout).toContain("dry run: nothing written");
    const users = await db.json<{ total: number }>(["user", "list"]);
    expect(users.total).toBe(1);
  });

  test("imports, then a second run has nothing to change", async () => {
    const first = await db.run(args("--with-logs"));
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `balance total: source ${src.data.quotaTotal} (used ${src.data.usedTotal}), Tollgate after ${src.data.quotaTotal} (used ${src.data.usedTotal})`,
    );
    expect(first.stdout).toContain(`logs: ${src.data.logCount} imported`);
    const second = await db.run(args("--with-logs"));
    expect(second.stdout).toContain("nothing to change");
    expect(second.stdout).toContain(`logs: 0 imported, ${src.data.logCount} already there`);
  });

  test("--since carries only the log rows from then on", async () => {
    await onFreshDatabase(async (fresh) => {
      const since = String(src.data.logsFrom + src.data.logCount - 10);
      const result = await fresh.run(args("--with-logs", "--since", since));
      expect(result.stdout).toContain("logs: 10 imported");
    });
  });

  test("--dry-run --with-logs --since counts the log rows it would carry and those it leaves out", async () => {
    await onFreshDatabase(async (fresh) => {
      const since = String(src.data.logsFrom + src.data.logCount - 10);
      const result = await fresh.run(args("--dry-run", "--with-logs", "--since", since));
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        `logs: 10 to import, 0 already there, 0 skipped (user not imported), 0 renumbered, ${src.data.logCount - 10} older than --since left out`,
      );
      expect(result.stdout).toContain("dry run: nothing written");
      expect((await fresh.json<{ total: number }>(["log", "list"])).total).toBe(0);
    });
  });

  test("--json reports the plan without password hashes or keys", async () => {
    await onFreshDatabase(async (fresh) => {
      const result = await fresh.run(args("--dry-run", "--json"));
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout);
      const alice = report.items.find((i: { name: string }) => i.name === "alice");
      expect(alice).toMatchObject({ kind: "user", action: "create", sourceId: 2 });
      for (const secret of ["$2", src.data.keys.alice, "sk-upstream-one"]) expect(result.stdout).not.toContain(secret);
    });
  });

  test("--only carries the sections named: users first, their tokens in a later run", async () => {
    await onFreshDatabase(async (fresh) => {
      const users = await fresh.json(args("--only", "users"));
      expect(new Set(users.items.map((i: { kind: string }) => i.kind))).toEqual(new Set(["user"]));
      expect((await fresh.json(["token", "list", "--user", "alice"])).total).toBe(0);
      const tokens = await fresh.json(args("--only", "tokens"));
      expect(tokens.balance).toEqual({ source: 0, sourceUsed: 0 });
      expect((await fresh.json(["token", "list", "--user", "alice"])).total).toBe(1);
    });
  });

  test("usage errors", async () => {
    await expectRefusal(db, ["import", "--from", "litellm", "--dsn", src.dsn], "--from must be one-api or new-api", 2);
    await expectRefusal(
      db,
      args("--only", "users,widgets"),
      "--only: unknown widgets (choose from users, tokens, channels, options, redemptions, topups, logs, tasks)",
      2,
    );
    await expectRefusal(db, args("--since", "2025-01-01"), "--since needs --with-logs", 2);
  });
});
