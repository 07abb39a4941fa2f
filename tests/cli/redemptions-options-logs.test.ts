import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { allowSlowTests, cliDatabase, expectRefusal, type CliDatabase } from "./support";

allowSlowTests();

let db: CliDatabase;
beforeAll(async () => (db = await cliDatabase()));
afterAll(() => db.drop());

const refused = (args: string[], message: string, code = 1) => expectRefusal(db, args, message, code);

describe("tollgate redemption", () => {
  test("create prints the codes, one per line", async () => {
    const result = await db.run(["redemption", "create", "--quota", "500000", "--count", "3", "--name", "launch"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(3);
    for (const code of result.stdout.trim().split("\n")) expect(code).toMatch(/^[0-9a-f]{32}$/);
    expect(await db.json(["redemption", "create", "--quota", "1000"])).toHaveLength(1);
  });

  test("create refuses a missing quota (usage), a bad count (usage) and a quota out of range", async () => {
    await refused(["redemption", "create", "--count", "2"], "required option '--quota <units>' not specified", 2);
    expect((await db.run(["redemption", "create", "--quota", "1", "--count", "101"])).code).toBe(2);
    await refused(["redemption", "create", "--quota", "0"], "quota must be between 1 and 500000000000");
  });

  test("list, disable, enable and delete", async () => {
    const page = await db.json(["redemption", "list", "--keyword", "launch"]);
    expect(page.total).toBe(3);
    const id = page.items[0].id;
    expect(await db.json(["redemption", "disable", String(id)])).toMatchObject({ status: 2 });
    expect((await db.run(["redemption", "enable", String(id)])).stdout).toBe(`redemption code ${id}: unused\n`);
    expect((await db.run(["redemption", "delete", String(id)])).code).toBe(0);
    await refused(["redemption", "delete", String(id)], "redemption code not found");
    await refused(["redemption", "disable", "x"], "id must be a positive integer");
  });
});

describe("tollgate option", () => {
  test("set saves through the same checks as the settings screen; get and list read it back", async () => {
    expect((await db.run(["option", "set", "SystemName", "CLI Gateway"])).stdout).toBe("saved SystemName\n");
    expect((await db.run(["option", "get", "SystemName"])).stdout).toBe("CLI Gateway\n");
    expect(await db.json(["option", "get", "SystemName"])).toEqual({ key: "SystemName", value: "CLI Gateway" });
    expect((await db.run(["option", "set", "ModelRatio", "-"], '{"m-1": 2}')).code).toBe(0);
    const all = await db.json(["option", "list"]);
    expect(all.find((o: { key: string }) => o.key === "ModelRatio").value).toBe('{"m-1":2}');
  });

  test("secret options save but read back blank; unknown keys and bad values are refused", async () => {
    await db.run(["option", "set", "EpayKey", "very-secret"]);
    expect((await db.run(["option", "get", "EpayKey"])).stdout).toBe("\n");
    await refused(["option", "get", "Nope"], "unknown option: Nope");
    await refused(["option", "set", "Nope", "1"], "unknown option: Nope");
    await refused(["option", "set", "QuotaForNewUser", "lots"], "QuotaForNewUser must be a number");
  });
});

describe("tollgate log", () => {
  test("list filters like the API and stat sums the consumption", async () => {
    await db.run(["user", "add", "alice", "--password", "alice-pass-1"]);
    await db.run(["user", "add-quota", "alice", "700"]);
    const page = await db.json(["log", "list", "--type", "manage", "--user", "alice", "--from", "2020-01-01"]);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ username: "alice", quota: 700, type: 3 });
    expect((await db.json(["log", "list", "--user", "root"])).total).toBe(0);
    expect(await db.json(["log", "stat", "--user", "alice"])).toEqual({ quota: 0, rpm: 0, tpm: 0 });
  });

  test("bad filters are refused", async () => {
    await refused(["log", "list", "--type", "bogus"], "type must be one of 0, 1, 2, 3, 4, 5, 6 (0 = all)");
    await refused(
      ["log", "list", "--from", "2026-02-01", "--to", "2026-01-01"],
      "start_timestamp must not be after end_timestamp",
    );
    await refused(
      ["log", "stat", "--from", "someday"],
      '--from must be "never", unix seconds or a date such as 2026-12-31',
    );
  });
});
