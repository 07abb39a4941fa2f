import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { importDatabase, type ImportRequest, SECTIONS } from "../../../src/service/importer/run";
import { DIALECTS } from "../../support/databases";
import { createForeignDatabase, type ForeignDatabase, type Product } from "../../support/foreign-gateway";
import { type FakeUpstream, startFakeUpstream } from "../../support/fake-upstream";
import { startTestServer, type TestServer } from "../../support/server";

const request = (src: ForeignDatabase, from: Product, extra: Partial<ImportRequest> = {}): ImportRequest => ({
  from,
  dsn: src.dsn,
  dryRun: false,
  only: new Set(SECTIONS),
  withLogs: true,
  ...extra,
});

const PRODUCTS: Product[] = ["one-api", "new-api"];

describe.each(DIALECTS)("import from another gateway on %s", (dialect) => {
  describe.each(PRODUCTS)("%s", (product) => {
    let s: TestServer;
    let fake: FakeUpstream;
    let src: ForeignDatabase;
    const userCount = async () => (await s.ctx.db.k.selectFrom("users").select("id").execute()).length;

    beforeAll(async () => {
      fake = startFakeUpstream();
      [s, src] = await Promise.all([
        startTestServer(dialect, { BILLING_FLUSH_MS: "20" }),
        createForeignDatabase(dialect, product, fake.url),
      ]);
    });
    afterAll(async () => {
      await s.stop();
      await fake.stop();
      await src.database.drop();
    });

    test("a dry run plans every row and writes nothing", async () => {
      const before = await userCount();
      const report = await importDatabase(s.ctx, request(src, product, { dryRun: true }));
      expect(report.written).toBe(false);
      expect(report.detected).toBe(product);
      const users = report.items.filter((i) => i.kind === "user");
      expect(users.map((u) => [u.name, u.action])).toEqual([
        ["root", "update"],
        ["alice", "create"],
        ["bob", "create"],
      ]);
      expect(report.items.find((i) => i.name === "ancient")).toMatchObject({ action: "skip" });
      const notCarried = report.notCarried.join("\n");
      expect(notCarried).toContain("SomeRetiredSwitch (Tollgate has no such option)");
      if (product === "new-api") {
        expect(notCarried).toContain("user columns Tollgate has no place for: discord_id (1 user)");
        expect(notCarried).toContain("tables: two_fas (1 rows)");
        // The traffic-policy columns exist here: new-api's overrides and multi-key state are carried, not listed.
        expect(notCarried).not.toContain("param_override");
        expect(notCarried).not.toContain("channel_info");
      }
      expect(report.streams.find((r) => r.table === "logs")).toMatchObject({
        total: src.data.logCount,
        beforeSince: 0,
        imported: src.data.logCount,
        skipped: 0,
      });
      const recent = await importDatabase(
        s.ctx,
        request(src, product, { dryRun: true, since: src.data.logsFrom + src.data.logCount - 10 }),
      );
      expect(recent.streams.find((r) => r.table === "logs")).toMatchObject({
        total: src.data.logCount,
        beforeSince: src.data.logCount - 10,
        read: 10,
        imported: 10,
      });
      expect(await userCount()).toBe(before);
      expect(await s.ctx.db.k.selectFrom("logs").select("id").execute()).toEqual([]);
    });

    test("imports users, keys, channels, options and codes with the balance total unchanged", async () => {
      const report = await importDatabase(s.ctx, request(src, product));
      expect(report.written).toBe(true);
      expect(report.balance).toEqual({
        source: src.data.quotaTotal,
        sourceUsed: src.data.usedTotal,
        after: src.data.quotaTotal,
        afterUsed: src.data.usedTotal,
      });
      const alice = await s.ctx.db.k
        .selectFrom("users")
        .selectAll()
        .where("username", "=", "alice")
        .executeTakeFirstOrThrow();
      expect(alice).toMatchObject({
        id: 2,
        quota: 7_000_000,
        used_quota: 123_456,
        request_count: 42,
        aff_code: "aB3d",
        github_id: "gh-alice",
        email: "alice@example.com",
      });
      const bob = await s.ctx.db.k
        .selectFrom("users")
        .selectAll()
        .where("username", "=", "bob")
        .executeTakeFirstOrThrow();
      expect(bob).toMatchObject({ id: 5, role: 10, inviter_id: 2 });
      expect(bob.aff_code).not.toBe("");
      const sums = await s.ctx.db.k
        .selectFrom("users")
        .select((eb) => [eb.fn.sum<number>("quota").as("q"), eb.fn.sum<number>("used_quota").as("u")])
        .where("username", "in", ["root", "alice", "bob"])
        .executeTakeFirstOrThrow();
      expect([Number(sums.q), Number(sums.u)]).toEqual([src.data.quotaTotal, src.data.usedTotal]);
      const channel = await s.ctx.db.k.selectFrom("channels").selectAll().where("id", "=", 3).executeTakeFirstOrThrow();
      expect(channel.key).not.toContain("sk-upstream-one");
      expect(s.ctx.db.secrets ? s.ctx.db.secrets.open(channel.key) : channel.key).toBe(
        "sk-upstream-one\nsk-upstream-two",
      );
      expect(channel).toMatchObject({ priority: 10, weight: 5, models: "gpt-4o-mini,gpt-4o", group: "default,vip" });
      const abilities = await s.ctx.db.k.selectFrom("abilities").selectAll().where("channel_id", "=", 3).execute();
      expect(abilities).toHaveLength(4);
      expect(s.ctx.options.raw("SystemName")).toBe("Old Gateway");
      expect(
        (await s.ctx.db.k.selectFrom("redemptions").select("status").orderBy("id").execute()).map((r) => r.status),
      ).toEqual([1, 3]);
      const stream = report.streams.find((r) => r.table === "logs")!;
      expect(stream.imported).toBe(src.data.logCount);
      const tasks = report.streams.filter((r) => r.table !== "logs").map((r) => [r.table, r.imported]);
      expect(tasks).toEqual(
        product === "new-api"
          ? [
              ["tasks", 1],
              ["midjourneys", 1],
            ]
          : [],
      );
      const keyRow = await s.ctx.db.k.selectFrom("tokens").selectAll().where("id", "=", 1).executeTakeFirstOrThrow();
      expect(JSON.stringify(keyRow)).not.toContain(src.data.keys.alice);
    });

    test("the user signs in with the old password and spends the imported balance with the old key", async () => {
      const client = s.client();
      const login = await client.login("alice", src.data.passwords.alice);
      expect(login.body.success).toBe(true);
      expect((await s.client().login("root", src.data.passwords.root)).body.success).toBe(true);
      const script = s.client();
      script.authorization = src.data.accessToken;
      script.userId = 2;
      const self = await script.get("/api/user/self");
      expect(self.body).toMatchObject({ success: true, data: { username: "alice" } });
      await s.ctx.relay.routes.rebuild();
      const openai = new OpenAI({ apiKey: `sk-${src.data.keys.alice}`, baseURL: `${s.url}/v1`, maxRetries: 0 });
      const reply = await openai.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "hi" }],
      });
      expect(reply.choices[0]!.message.content).toBeTruthy();
      await s.ctx.relay.book.flush();
      const alice = await s.ctx.db.k
        .selectFrom("users")
        .select(["quota", "used_quota"])
        .where("id", "=", 2)
        .executeTakeFirstOrThrow();
      const log = await s.ctx.db.k
        .selectFrom("logs")
        .selectAll()
        .where("type", "=", 2)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(log.quota).toBeGreaterThan(0);
      expect(alice.quota).toBe(7_000_000 - log.quota);
      expect(alice.used_quota).toBe(123_456 + log.quota);
      // new-api's multi-key channel (polling) arrives multi-key: either of its keys answers; one-api's takes the first.
      const keys =
        product === "new-api" ? ["Bearer sk-upstream-one", "Bearer sk-upstream-two"] : ["Bearer sk-upstream-one"];
      expect(keys).toContain(fake.requests.at(-1)!.headers.authorization ?? "");
      // new-api's param_override came along and is applied to the upstream body.
      if (product === "new-api") expect(fake.requests.at(-1)!.body.temperature).toBe(0.5);
    });

    test("a second import changes nothing", async () => {
      await s.ctx.relay.book.flush();
      const balance = await s.ctx.db.k
        .selectFrom("users")
        .select("quota")
        .where("id", "=", 2)
        .executeTakeFirstOrThrow();
      const report = await importDatabase(s.ctx, request(src, product));
      expect(report.items.filter((i) => i.action === "create" || i.action === "update")).toEqual([]);
      expect(report.balance).toEqual({ source: 0, sourceUsed: 0, after: 0, afterUsed: 0 });
      expect(report.streams.find((r) => r.table === "logs")).toMatchObject({
        imported: 0,
        alreadyThere: src.data.logCount,
      });
      const after = await s.ctx.db.k.selectFrom("users").select("quota").where("id", "=", 2).executeTakeFirstOrThrow();
      expect(after.quota).toBe(balance.quota);
    });
  });
});
