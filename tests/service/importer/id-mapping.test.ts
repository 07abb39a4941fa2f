import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Kysely } from "kysely";
import { importDatabase, SECTIONS } from "../../../src/service/importer/run";
import { DIALECTS } from "../../support/databases";
import { createForeignDatabase, type ForeignDatabase } from "../../support/foreign-gateway";
import { startTestServer, type TestServer } from "../../support/server";

describe.each(DIALECTS)("import into a Tollgate in use, ids taken, on %s", (dialect) => {
  let s: TestServer;
  let src: ForeignDatabase;
  beforeAll(async () => {
    [s, src] = await Promise.all([
      startTestServer(dialect),
      createForeignDatabase(dialect, "one-api", "http://127.0.0.1:9"),
    ]);
    await s.newUser("carol", "carol-pass-1");
    const source = src.database.open();
    const twin = {
      id: 9,
      user_id: 2,
      key: src.data.keys.alice,
      name: "twin",
      status: 1,
      created_time: 1,
      remain_quota: 1,
    };
    await (source.k as unknown as Kysely<any>).insertInto("tokens").values(twin).execute();
    await source.close();
    // Tollgate's own log rows hold the ids of the source's first logs, so those arrive renumbered.
    await s.ctx.db.k
      .insertInto("logs")
      .values([1, 2, 3].map((id) => ({ id, user_id: 1, created_at: 1, type: 3, quota: 1 })))
      .execute();
    for (const name of ["a", "b", "c"]) {
      const reply = await s.root.post("/api/channel/", { type: 1, name, key: "k", models: "m", group: "default" });
      expect(reply.body.success).toBe(true);
    }
  });
  afterAll(async () => {
    await s.stop();
    await src.database.drop();
  });

  const request = () => ({
    from: "one-api" as const,
    dsn: src.dsn,
    dryRun: false,
    only: new Set(SECTIONS),
    withLogs: true,
  });

  test("rows whose ids are taken get new ones, printed, and every reference follows them", async () => {
    const report = await importDatabase(s.ctx, request());
    expect(report.streams.find((r) => r.table === "logs")).toMatchObject({
      imported: src.data.logCount,
      renumbered: 3,
    });
    const alice = report.items.find((i) => i.kind === "user" && i.name === "alice")!;
    const channel = report.items.find((i) => i.kind === "channel")!;
    expect([alice.sourceId, alice.targetId]).toEqual([2, 6]);
    expect([channel.sourceId, channel.targetId]).toEqual([3, 4]);
    expect(report.items.find((i) => i.name === "twin")).toMatchObject({
      action: "skip",
      reason: "same key as token #1",
    });
    const k = s.ctx.db.k;
    expect(
      (await k.selectFrom("users").select("inviter_id").where("username", "=", "bob").executeTakeFirstOrThrow())
        .inviter_id,
    ).toBe(6);
    expect(
      (await k.selectFrom("tokens").select("user_id").where("name", "=", "laptop").executeTakeFirstOrThrow()).user_id,
    ).toBe(6);
    const aliceLogs = await k
      .selectFrom("logs")
      .select(["user_id", "channel_id"])
      .where("username", "=", "alice")
      .execute();
    expect(aliceLogs.length).toBe(src.data.logCount / 2);
    expect(new Set(aliceLogs.map((l) => `${l.user_id}/${l.channel_id}`))).toEqual(new Set(["6/4"]));
    expect((await s.client().login("carol", "carol-pass-1")).body.success).toBe(true);
    expect((await s.client().login("alice", src.data.passwords.alice)).body.success).toBe(true);
    const next = await s.newUser("dave", "dave-pass-12");
    expect(next.userId).toBeGreaterThan(6);
  });

  test("a second import adds none of the log rows again, the renumbered ones included", async () => {
    const logs = () => s.ctx.db.k.selectFrom("logs").select(["id", "quota"]).execute();
    const before = await logs();
    const report = await importDatabase(s.ctx, request());
    expect(report.streams.find((r) => r.table === "logs")).toMatchObject({
      imported: 0,
      renumbered: 0,
      alreadyThere: src.data.logCount,
    });
    expect(await logs()).toEqual(before);
  });
});
