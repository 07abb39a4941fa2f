import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { allowSlowTests, cliDatabase, type CliDatabase } from "./support";

allowSlowTests();

let db: CliDatabase;
beforeAll(async () => {
  db = await cliDatabase();
  await db.run(["user", "add", "alice", "--password", "alice-pass-1"]);
  await db.run(["user", "add-quota", "alice", "1234567"]);
  await db.run(["token", "add", "--user", "alice", "--name", "laptop", "--quota", "60"]);
  await db.run(["redemption", "create", "--quota", "500000", "--name", "launch"]);
});
afterAll(() => db.drop());

/** The cells of the table row whose text contains `needle`, split on the two-space column gaps. */
async function rowOf(args: string[], needle: string): Promise<string[]> {
  const result = await db.run(args);
  expect(result.code).toBe(0);
  const line = result.stdout.split("\n").find((text) => text.includes(needle));
  if (!line) throw new Error(`no row with ${needle} in:\n${result.stdout}`);
  return line.trim().split(/ {2,}/);
}

describe("the CLI shows quota by the site's display, --json keeps raw units", () => {
  test("US dollars by default: tables, records and messages", async () => {
    expect(await rowOf(["user", "list"], "alice")).toContain("$2.47");
    expect(await rowOf(["token", "list", "--user", "alice"], "laptop")).toContain("$0.00012");
    expect(await rowOf(["redemption", "list"], "launch")).toContain("$1.00");
    expect(await rowOf(["log", "list", "--user", "alice"], "manage")).toContain("$2.47");
    expect((await db.run(["user", "show", "alice"])).stdout).toMatch(/^quota +\$2\.47$/m);
    expect((await db.run(["token", "show", "laptop", "--user", "alice"])).stdout).toMatch(
      /^remain_quota +\$0\.00012$/m,
    );
    expect((await db.run(["user", "add-quota", "alice", "1234567", "--mode", "override"])).stdout).toBe(
      "user alice: balance $2.47\n",
    );
  });

  test("--json answers the raw quota units", async () => {
    const users = await db.json(["user", "list", "--keyword", "alice"]);
    expect(users.items[0]).toMatchObject({ quota: 1234567, used_quota: 0 });
    const tokens = await db.json(["token", "list", "--user", "alice"]);
    expect(tokens.items[0]).toMatchObject({ remain_quota: 60 });
    expect((await db.json(["user", "show", "alice"])).quota).toBe(1234567);
  });

  test("yuan at the exchange rate, and k/M/B counts when currency display is off", async () => {
    await db.run(["option", "set", "QuotaDisplayCurrency", "CNY"]);
    await db.run(["option", "set", "USDExchangeRate", "7.3"]);
    expect(await rowOf(["user", "list"], "alice")).toContain("¥18.02");
    expect(await rowOf(["token", "list", "--user", "alice"], "laptop")).toContain("¥0.000876");
    await db.run(["option", "set", "DisplayInCurrencyEnabled", "false"]);
    expect(await rowOf(["user", "list"], "alice")).toContain("1.23M");
    expect(await rowOf(["redemption", "list"], "launch")).toContain("500k");
  });
});
