import { beforeAll, describe, expect, test } from "bun:test";
import type { Db } from "../../src/db/connect";
import { inTransaction } from "../../src/db/exec";
import { migrate } from "../../src/db/migrations";
import { insertIfAbsent, readAll, readOne, upsert } from "../../src/db/queries/key-value";
import { addUserQuota, findUserById, insertUser, moveAffQuotaToQuota, pageUsers } from "../../src/db/queries/users";
import { DIALECTS } from "../support/databases";
import { useMigratedDatabase } from "../support/migrated-database";

const TABLES = [
  "abilities",
  "account_codes",
  "channels",
  "import_renumbered",
  "internals",
  "logs",
  "midjourneys",
  "one_time_keys",
  "options",
  "quota_data",
  "quota_leases",
  "redemptions",
  "sessions",
  "setups",
  "tasks",
  "tokens",
  "top_ups",
  "users",
];

const newUser = (name: string, extra: Record<string, unknown> = {}) => ({
  username: name,
  password: "hash",
  aff_code: `aff-${name}`,
  created_at: 1,
  email: null,
  access_token_hash: null,
  deleted_at: null,
  ...extra,
});

describe.each(DIALECTS)("data layer on %s", (dialect) => {
  const database = useMigratedDatabase(dialect);
  let db: Db;
  beforeAll(() => {
    db = database();
  });

  test("migrations create the same tables, and a second run applies nothing", async () => {
    const tables = (await db.k.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith("kysely_"));
    expect(tables.sort()).toEqual(TABLES);
    expect(await migrate(db)).toEqual([]);
  });

  test("ids come back as numbers from inserts and selects", async () => {
    const id = await insertUser(db, newUser("ids"));
    expect(typeof id).toBe("number");
    const row = await findUserById(db, id);
    expect(row?.id).toBe(id);
    expect(row?.group).toBe("default");
  });

  test("quota is a BIGINT that keeps values beyond 32 bits exactly", async () => {
    const big = 500_000_000_000_000;
    const id = await insertUser(db, newUser("big", { quota: big }));
    await addUserQuota(db, id, 7);
    expect((await findUserById(db, id))?.quota).toBe(big + 7);
  });

  test("reserved column names (group, key) work in filters and upserts", async () => {
    await insertUser(db, newUser("vip1", { group: "vip" }));
    const { rows, total } = await pageUsers(db, { group: "vip", offset: 0, limit: 10 });
    expect(total).toBe(1);
    expect(rows[0]?.username).toBe("vip1");
    await upsert(db, "options", "Notice", "one");
    await upsert(db, "options", "Notice", "two");
    expect(await readOne(db, "options", "Notice")).toBe("two");
    expect((await readAll(db, "options")).get("Notice")).toBe("two");
  });

  test("insertIfAbsent keeps the first value", async () => {
    expect(await insertIfAbsent(db, "internals", "k1", "first")).toBe("first");
    expect(await insertIfAbsent(db, "internals", "k1", "second")).toBe("first");
  });

  test("keyword search takes % and _ literally", async () => {
    await insertUser(db, newUser("a_b"));
    await insertUser(db, newUser("axb"));
    const { rows } = await pageUsers(db, { keyword: "a_b", offset: 0, limit: 10 });
    expect(rows.map((r) => r.username)).toEqual(["a_b"]);
    expect((await pageUsers(db, { keyword: "%", offset: 0, limit: 10 })).total).toBe(0);
  });

  test("a failed transaction changes nothing", async () => {
    const id = await insertUser(db, newUser("tx", { quota: 10 }));
    await expect(
      inTransaction(db, async (tx) => {
        await addUserQuota(tx, id, 5);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect((await findUserById(db, id))?.quota).toBe(10);
  });

  test("a conditional update never takes affiliate quota below zero under concurrency", async () => {
    const id = await insertUser(db, newUser("aff", { aff_quota: 3 }));
    const results = await Promise.all(Array.from({ length: 10 }, () => moveAffQuotaToQuota(db, id, 1)));
    expect(results.filter(Boolean)).toHaveLength(3);
    const row = await findUserById(db, id);
    expect(row).toMatchObject({ aff_quota: 0, quota: 3 });
  });
});
