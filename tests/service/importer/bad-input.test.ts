import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Kysely } from "kysely";
import { importDatabase, type ImportRequest, SECTIONS } from "../../../src/service/importer/run";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../../support/databases";
import { createForeignDatabase, type ForeignDatabase } from "../../support/foreign-gateway";
import { startTestServer, type TestServer } from "../../support/server";

const request = (dsn: string): ImportRequest => ({
  from: "one-api",
  dsn,
  dryRun: false,
  only: new Set(SECTIONS),
  withLogs: true,
});

const UNREACHABLE = {
  sqlite: "/nonexistent/dir/one-api.db",
  postgres: "postgres://postgres:hunter2@127.0.0.1:1/one_api",
  mysql: "mysql://root:hunter2@127.0.0.1:1/one_api",
} as const;

describe.each(DIALECTS)("import refusals on %s", (dialect) => {
  let s: TestServer;
  let src: ForeignDatabase;
  let other: TestDatabase;
  const counts = async () =>
    Promise.all(
      (["users", "tokens", "channels", "abilities", "redemptions", "logs", "options"] as const).map(
        async (t) => (await s.ctx.db.k.selectFrom(t).selectAll().execute()).length,
      ),
    );

  beforeAll(async () => {
    [s, src, other] = await Promise.all([
      startTestServer(dialect),
      createForeignDatabase(dialect, "new-api", "http://127.0.0.1:9"),
      createTestDatabase(dialect),
    ]);
    const db = other.open();
    await (db.k as unknown as Kysely<any>).schema.createTable("invoices").addColumn("id", "integer").execute();
    await db.close();
  });
  afterAll(async () => {
    await s.stop();
    await src.database.drop();
    await other.drop();
  });

  test("an unreachable source is refused with where it is, never the password", async () => {
    const before = await counts();
    const refusal = importDatabase(s.ctx, request(UNREACHABLE[dialect]));
    await expect(refusal).rejects.toThrow(dialect === "sqlite" ? "no such file" : "cannot reach the source database");
    await refusal.catch((error: Error) => expect(error.message).not.toContain("hunter2"));
    expect(await counts()).toEqual(before);
  });

  test("a database of neither product is refused", async () => {
    const before = await counts();
    await expect(
      importDatabase(s.ctx, request(other.dialect === "sqlite" ? other.sqlitePath : other.dsn)),
    ).rejects.toThrow("the source is not a one-api or new-api database: no table users, tokens, channels, options");
    expect(await counts()).toEqual(before);
  });

  test("a Tollgate user of the same name who is someone else stops the whole import", async () => {
    const alice = await s.newUser("alice", "someone-else-1");
    await s.ctx.db.k.updateTable("users").set({ request_count: 3 }).where("id", "=", alice.userId!).execute();
    const before = await counts();
    await expect(importDatabase(s.ctx, request(src.dsn))).rejects.toThrow(
      "nothing imported: 1 user(s) conflict with Tollgate's: alice (Tollgate already has a different user of this name)",
    );
    expect(await counts()).toEqual(before);
    expect((await s.client().login("alice", "someone-else-1")).body.success).toBe(true);
  });

  test("two source users whose names look alike cannot both arrive: a conflict, nothing written", async () => {
    const db = src.database.open();
    await (db.k as unknown as Kysely<any>)
      .insertInto("users")
      .values({ id: 9, username: "Bob", password: "x", role: 1, status: 1, quota: 5 })
      .execute();
    await db.close();
    const before = await counts();
    await expect(importDatabase(s.ctx, request(src.dsn))).rejects.toThrow("Bob (looks like the user bob)");
    expect(await counts()).toEqual(before);
  });
});
