import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../../src/db/connect";
import { migrate } from "../../src/db/migrations";
import { channelBody } from "../support/channels";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../support/databases";
import { openTestContext, startTestServer, type TestServer } from "../support/server";
import { storedFormsOf } from "../../src/service/tokens/key";
import { findTokenByKey } from "../../src/service/tokens/lookup";
import { randomAlphanumeric } from "../../src/service/crypto";
import type { ServiceContext } from "../../src/service/context";

const WRONG_KEY = "cannot decrypt channel keys: the secret key differs from the one that encrypted them";
const CHANNEL_KEY = "sk-upstream-PLAINTEXT-4242";
const SMTP_TOKEN = "smtp-PLAINTEXT-9191";

/** The raw stored values, read through a connection of our own that knows no key. */
async function rawSecrets(database: TestDatabase) {
  const db = database.open();
  try {
    const channels = await db.k.selectFrom("channels").select("key").execute();
    const options = await db.k.selectFrom("options").select(["key", "value"]).where("key", "=", "SMTPToken").execute();
    const internals = await db.k.selectFrom("internals").select(["key", "value"]).execute();
    return {
      channelKeys: channels.map((c) => c.key),
      smtpToken: options[0]?.value,
      internals: new Map(internals.map((r) => [r.key, r.value])),
    };
  } finally {
    await db.close();
  }
}

/** A database as the previous version left it: its secret in `internals`, secrets in plaintext, a token sealed under it. */
async function legacyDatabase(db: Db, legacySecret: string, rawTokenKey: string): Promise<void> {
  await migrate(db);
  await db.k.insertInto("internals").values({ key: "session_secret", value: legacySecret }).execute();
  await db.k.insertInto("options").values({ key: "SMTPToken", value: SMTP_TOKEN }).execute();
  await db.k
    .insertInto("channels")
    .values({ type: 1, key: CHANNEL_KEY, name: "old", models: "m", group: "default", created_time: 1 })
    .execute();
  await db.k
    .insertInto("users")
    .values({ username: "owner", password: "x", aff_code: "aff001", created_at: 1 })
    .execute();
  const owner = await db.k.selectFrom("users").select("id").executeTakeFirstOrThrow();
  const forms = storedFormsOf({ secret: legacySecret }, rawTokenKey);
  await db.k
    .insertInto("tokens")
    .values({ user_id: owner.id, name: "t", created_time: 1, ...forms })
    .execute();
}

describe.each(DIALECTS)("secrets at rest on %s", (dialect) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  const fresh = async () => {
    const database = await createTestDatabase(dialect);
    cleanup.push(() => database.drop());
    return database;
  };
  const open = async (database: TestDatabase, env: Record<string, string> = {}): Promise<ServiceContext> => {
    const ctx = await openTestContext(database, env);
    cleanup.push(() => ctx.close());
    return ctx;
  };

  test("a channel key and a secret option are stored encrypted, never in plaintext, and read back whole", async () => {
    const s: TestServer = await startTestServer(dialect);
    cleanup.push(() => s.stop());
    const created = await s.root.post("/api/channel/", channelBody({ key: CHANNEL_KEY }));
    expect(created.body.success).toBe(true);
    expect((await s.root.put("/api/option/", { key: "SMTPToken", value: SMTP_TOKEN })).body.success).toBe(true);
    const raw = await rawSecrets(s.database);
    expect(raw.channelKeys).toEqual([expect.stringMatching(/^enc:v1:/)]);
    expect(raw.channelKeys[0]).not.toContain("PLAINTEXT");
    expect(raw.smtpToken).toMatch(/^enc:v1:/);
    expect(raw.smtpToken).not.toContain("PLAINTEXT");
    expect(raw.internals.has("session_secret")).toBe(false);
    const id = created.body.data.id;
    expect((await s.root.post(`/api/channel/${id}/key`, {})).body.data).toEqual({ key: CHANNEL_KEY });
    expect(s.ctx.relay.routes.channel(id)?.row.key).toBe(CHANNEL_KEY);
    expect(s.ctx.options.raw("SMTPToken")).toBe(SMTP_TOKEN);
    const search = await s.root.get(`/api/channel/search?keyword=${encodeURIComponent(CHANNEL_KEY)}`);
    expect(search.body.data.items.map((c: { id: number }) => c.id)).toEqual([id]);
  });

  test("a database of the previous version is migrated on start: its secret leaves it for the key file, values are encrypted, token keys still resolve", async () => {
    const database = await fresh();
    const legacy = randomAlphanumeric(64);
    const rawTokenKey = randomAlphanumeric(48);
    const db = database.open();
    await legacyDatabase(db, legacy, rawTokenKey);
    await db.close();
    const ctx = await open(database);
    const keyFile = join(database.sqlitePath, "..", "tollgate.key");
    expect(readFileSync(keyFile, "utf8").trim()).toBe(legacy);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(ctx.secretKey.notices[0]).toBe(
      `[secrets] moved the secret key out of the database into ${ctx.config.secretKeyFile}`,
    );
    const raw = await rawSecrets(database);
    expect(raw.internals.has("session_secret")).toBe(false);
    expect(raw.channelKeys[0]).toMatch(/^enc:v1:/);
    expect(raw.smtpToken).toMatch(/^enc:v1:/);
    expect((await findTokenByKey(ctx, rawTokenKey))?.name).toBe("t");
    const channel = await ctx.db.k.selectFrom("channels").select("id").executeTakeFirstOrThrow();
    expect(ctx.relay.routes.channel(channel.id)?.row.key).toBe(CHANNEL_KEY);
    expect(ctx.options.raw("SMTPToken")).toBe(SMTP_TOKEN);
    await ctx.close();
    cleanup.pop();
    const again = await open(database);
    expect(await rawSecrets(database)).toEqual(raw);
    expect((await findTokenByKey(again, rawTokenKey))?.name).toBe("t");
  });

  test("with SESSION_SECRET set, token keys sealed under the old in-database secret are re-sealed under it", async () => {
    const database = await fresh();
    const rawTokenKey = randomAlphanumeric(48);
    const db = database.open();
    await legacyDatabase(db, randomAlphanumeric(64), rawTokenKey);
    await db.close();
    const ctx = await open(database, { SESSION_SECRET: "a-configured-secret-of-some-length-42" });
    expect((await findTokenByKey(ctx, rawTokenKey))?.name).toBe("t");
    expect((await rawSecrets(database)).internals.has("session_secret")).toBe(false);
    expect(existsSync(ctx.config.secretKeyFile)).toBe(false);
  });

  test("a start with another key fails clearly and changes nothing", async () => {
    const database = await fresh();
    const first = await open(database);
    await first.close();
    cleanup.pop();
    const before = await rawSecrets(database);
    writeFileSync(first.config.secretKeyFile, `${randomAlphanumeric(64)}\n`);
    await expect(openTestContext(database)).rejects.toThrow(`${WRONG_KEY} (the key of ${first.config.secretKeyFile})`);
    await expect(openTestContext(database, { SESSION_SECRET: "not-the-key-that-encrypted-them-0000" })).rejects.toThrow(
      WRONG_KEY,
    );
    expect(await rawSecrets(database)).toEqual(before);
  });

  test("the key file beside the SQLite file is warned about at start", async () => {
    const ctx = await open(await fresh());
    const beside = ctx.secretKey.notices.filter((notice) => notice.includes("is in the database's folder"));
    expect(beside).toHaveLength(dialect === "sqlite" ? 1 : 0);
  });
});
