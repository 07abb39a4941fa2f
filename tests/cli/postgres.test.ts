import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bootstrapRoot } from "../../src/service/accounts/setup";
import { loadConfig } from "../../src/service/config";
import { openServiceContext } from "../../src/service/context";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { allowSlowTests, ROOT_PASSWORD, runCli } from "./support";

allowSlowTests();

/** The CLI is the same service calls on every database; one smoke run on PostgreSQL shows it connects through SQL_DSN. */
describe("the CLI on PostgreSQL (SQL_DSN)", () => {
  let database: TestDatabase;
  /** Instances of one database share its secret key (here SESSION_SECRET: the CLI runs in another folder). */
  const SESSION_SECRET = "the-secret-key-every-instance-shares-0123";
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const ctx = await openServiceContext(
      loadConfig({ SQL_DSN: database.dsn, INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, SESSION_SECRET }),
    );
    await bootstrapRoot(ctx);
    await ctx.close();
  });
  afterAll(() => database.drop());

  test("user add and user list --json run against a fresh PostgreSQL database", async () => {
    const env = { SQL_DSN: database.dsn, SESSION_SECRET };
    expect((await runCli(["user", "add", "alice", "--password", "alice-pass-1"], env, import.meta.dir)).code).toBe(0);
    const result = await runCli(["user", "list", "--json"], env, import.meta.dir);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).items.map((u: { username: string }) => u.username)).toEqual(["alice", "root"]);
  });
});
