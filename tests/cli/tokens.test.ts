import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { allowSlowTests, cliDatabase, expectRefusal, type CliDatabase } from "./support";

allowSlowTests();

let db: CliDatabase;
beforeAll(async () => {
  db = await cliDatabase();
  await db.run(["user", "add", "alice", "--password", "alice-pass-1"]);
});
afterAll(() => db.drop());

const refused = (args: string[], message: string, code = 1) => expectRefusal(db, args, message, code);

describe("tollgate token: the CLI acts for the owner named by --user", () => {
  let key = "";

  test("add prints the new keys once; the fields follow the flags", async () => {
    const result = await db.run([
      "token",
      "add",
      "--user",
      "alice",
      "--name",
      "laptop",
      "--quota",
      "5000",
      "--expires",
      "2099-01-01",
      "--models",
      "gpt-4o",
    ]);
    expect(result.code).toBe(0);
    key = result.stdout.trim();
    expect(key).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    const shown = await db.json(["token", "show", "laptop", "--user", "alice"]);
    expect(shown).toMatchObject({
      name: "laptop",
      remain_quota: 5000,
      expired_time: 4070908800,
      model_limits_enabled: true,
      model_limits: "gpt-4o",
    });
    expect(shown.key).not.toBe(key);
    const two = await db.json(["token", "add", "--user", "2", "--name", "ci", "--count", "2", "--unlimited"]);
    expect(two.keys).toHaveLength(2);
  });

  test("add refuses without --user (usage), for an unknown user, and a past expiry", async () => {
    await refused(["token", "add", "--name", "x"], "required option '--user <user>' not specified", 2);
    await refused(["token", "add", "--user", "nobody", "--name", "x"], "user not found");
    await refused(
      ["token", "add", "--user", "alice", "--name", "x", "--expires", "2001-01-01"],
      "expired_time must be in the future, or -1 for never",
    );
  });

  test("list --json answers the owner's tokens only", async () => {
    const page = await db.json(["token", "list", "--user", "alice"]);
    expect(page.total).toBe(3);
    expect((await db.json(["token", "list", "--user", "root"])).total).toBe(0);
  });

  test("reveal prints the whole key", async () => {
    expect((await db.run(["token", "reveal", "laptop", "--user", "alice"])).stdout).toBe(`${key}\n`);
    await refused(["token", "reveal", "laptop", "--user", "root"], "token not found");
  });

  test("edit changes what is given; disable and enable; enabling an exhausted token is refused", async () => {
    expect(
      await db.json(["token", "edit", "laptop", "--user", "alice", "--allow-ips", "10.0.0.1,10.1.0.0/16"]),
    ).toMatchObject({ allow_ips: "10.0.0.1\n10.1.0.0/16", remain_quota: 5000 });
    await refused(
      ["token", "edit", "laptop", "--user", "alice", "--allow-ips", "nope"],
      'allow_ips: "nope" is not an IP address or CIDR range',
    );
    expect((await db.run(["token", "disable", "laptop", "--user", "alice"])).stdout).toBe(
      "token laptop (id 1): disabled\n",
    );
    await db.run(["token", "edit", "laptop", "--user", "alice", "--quota", "0"]);
    await refused(
      ["token", "enable", "laptop", "--user", "alice"],
      "the token's quota is used up: raise its remaining quota or make it unlimited before enabling it",
    );
    await db.run(["token", "edit", "laptop", "--user", "alice", "--quota", "10"]);
    expect(await db.json(["token", "enable", "laptop", "--user", "alice"])).toMatchObject({ status: 1 });
  });

  test("a name two tokens share asks for the id; delete removes one", async () => {
    await db.run(["token", "add", "--user", "alice", "--name", "laptop"]);
    const ids = (await db.json(["token", "list", "--user", "alice", "--keyword", "laptop"])).items.map(
      (t: { id: number }) => t.id,
    );
    await refused(
      ["token", "delete", "laptop", "--user", "alice"],
      `2 tokens are named "laptop": use the id (${ids.join(", ")})`,
    );
    expect((await db.run(["token", "delete", String(ids[0]), "--user", "alice"])).code).toBe(0);
    await refused(["token", "delete", String(ids[0]), "--user", "alice"], "token not found");
  });
});
