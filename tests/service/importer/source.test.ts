import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openSource, readTable, type SourceDb } from "../../../src/db/foreign/source";
import { DIALECTS } from "../../support/databases";
import { createForeignDatabase, type ForeignDatabase } from "../../support/foreign-gateway";

describe.each(DIALECTS)("the source database on %s", (dialect) => {
  let src: ForeignDatabase;
  let opened: SourceDb;
  beforeAll(async () => {
    src = await createForeignDatabase(dialect, "one-api", "http://127.0.0.1:9");
    opened = await openSource(src.dsn);
  });
  afterAll(async () => {
    await opened.close();
    await src.database.drop();
  });

  test("is read, and refuses every write even through the import's own connection", async () => {
    expect((await readTable(opened, "users")).map((u) => u.username)).toEqual(["root", "alice", "bob"]);
    await expect(opened.k.deleteFrom("users").execute()).rejects.toThrow(/read.?only/i);
    await expect(opened.k.insertInto("options").values({ key: "x", value: "y" }).execute()).rejects.toThrow(
      /read.?only/i,
    );
    expect(await readTable(opened, "users")).toHaveLength(3);
  });
});
