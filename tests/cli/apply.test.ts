import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { allowSlowTests, cliDatabase, expectRefusal, type CliDatabase } from "./support";

allowSlowTests();

const TOKEN_KEY = `sk-${"a1B2c3D4e5".repeat(4)}abcdefgh`;
const NEW_TOKEN_KEY = `sk-${"Z9y8X7w6V5".repeat(4)}zyxwvuts`;

const FILE = `
version: 1
options:
  SystemName: Declared Gateway
  QuotaForNewUser: 1000
  ServerAddress: https://gateway.example.com
  EpayKey: epay-secret-value
  GroupRatio: { default: 1, vip: 2 }
users:
  - { username: alice, password: alice-pass-1, role: admin, group: vip, quota: 5000000, email: alice@example.com }
  - { username: dave, status: disabled, remark: no password given }
channels:
  - name: openai-main
    type: OpenAI
    key: sk-upstream-secret
    models: [gpt-4o, gpt-4o-mini]
    groups: [default, vip]
    priority: 10
    model_mapping: { gpt-4: gpt-4o }
  - { name: claude, type: 14, key: claude-secret, models: claude-3, groups: default, status: disabled }
tokens:
  - { user: alice, name: laptop, key: ${TOKEN_KEY}, remain_quota: 500000, expired_time: never, model_limits: [gpt-4o] }
  - { user: dave, name: ci, unlimited_quota: true, status: disabled }
redemptions:
  - { name: launch, quota: 500000, count: 3 }
`;

type Plan = {
  dry_run: boolean;
  steps: { kind: string; name: string; action: string; changes: { field: string; from?: unknown; to?: unknown }[] }[];
};

/** Every row the CLI could write, change stamps included: equal snapshots mean nothing was written. */
function snapshot(db: CliDatabase): string {
  const sqlite = new Database(db.env.SQLITE_PATH!, { readonly: true });
  const tables = ["users", "channels", "abilities", "tokens", "redemptions", "options", "internals", "logs"];
  const rows = tables.map((table) => sqlite.query(`SELECT * FROM ${table} ORDER BY 1, 2`).all());
  sqlite.close();
  return JSON.stringify(rows);
}

const actions = (plan: Plan) => Object.fromEntries(plan.steps.map((s) => [`${s.kind}:${s.name}`, s.action]));

let db: CliDatabase;
let file: string;
const write = (text: string, name = "tollgate.yaml") => {
  const path = join(db.dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(async () => {
  db = await cliDatabase();
  file = write(FILE);
});
afterAll(() => db.drop());

describe("tollgate apply", () => {
  test("creates what the file declares, in order, and reports each object's action", async () => {
    const plan: Plan = await db.json(["apply", "-f", file]);
    expect(plan.dry_run).toBe(false);
    expect(actions(plan)).toEqual({
      "option:SystemName": "update",
      "option:QuotaForNewUser": "update",
      "option:ServerAddress": "update",
      "option:EpayKey": "update",
      "option:GroupRatio": "update",
      "user:alice": "create",
      "user:dave": "create",
      "channel:openai-main": "create",
      "channel:claude": "create",
      "token:alice/laptop": "create",
      "token:dave/ci": "create",
      "redemption:launch": "create",
    });
    expect(await db.json(["user", "show", "alice"])).toMatchObject({
      role: 10,
      group: "vip",
      quota: 5000000,
      email: "alice@example.com",
    });
    expect(await db.json(["user", "show", "dave"])).toMatchObject({ status: 2, remark: "no password given" });
    expect(await db.json(["channel", "show", "openai-main", "--with-key"])).toMatchObject({
      key: "sk-upstream-secret",
      priority: 10,
      group: "default,vip",
      model_mapping: '{"gpt-4":"gpt-4o"}',
    });
    expect(await db.json(["channel", "show", "claude"])).toMatchObject({ type: 14, status: 2 });
    expect((await db.run(["token", "reveal", "laptop", "--user", "alice"])).stdout.trim()).toBe(TOKEN_KEY);
    expect(await db.json(["token", "show", "ci", "--user", "dave"])).toMatchObject({
      status: 2,
      unlimited_quota: true,
    });
    expect((await db.json(["redemption", "list", "--keyword", "launch"])).total).toBe(3);
    expect((await db.run(["option", "get", "SystemName"])).stdout).toBe("Declared Gateway\n");
  });

  test("applying the same file again changes nothing: every object unchanged, no row written", async () => {
    const before = snapshot(db);
    const plan: Plan = await db.json(["apply", "-f", file]);
    expect(new Set(plan.steps.map((s) => s.action))).toEqual(new Set(["unchanged"]));
    expect(snapshot(db)).toBe(before);
    expect((await db.run(["apply", "-f", file])).stdout).toBe(
      "plan: 0 to create, 0 to update, 12 unchanged\nnothing to change\n",
    );
  });

  test("--dry-run prints the plan (create / update / unchanged) and writes nothing; secrets are named, never shown", async () => {
    const changed = FILE.replace("priority: 10", "priority: 20")
      .replace("sk-upstream-secret", "sk-rotated-secret")
      .replace("alice-pass-1", "alice-pass-2")
      .replace("epay-secret-value", "epay-rotated-value")
      .replace(TOKEN_KEY, NEW_TOKEN_KEY)
      .replace("count: 3", "count: 5")
      .concat("  - { name: spring, quota: 1000 }\n");
    const path = write(changed, "changed.yaml");
    const before = snapshot(db);
    const result = await db.run(["apply", "-f", path, "--dry-run"]);
    expect(result.code).toBe(0);
    expect(snapshot(db)).toBe(before);
    expect(result.stdout).toMatch(/^update +channel +openai-main +key \(secret\), priority: 10 → 20$/m);
    expect(result.stdout).toMatch(/^update +user +alice +password \(secret\)$/m);
    expect(result.stdout).toMatch(/^update +option +EpayKey +value \(secret\)$/m);
    expect(result.stdout).toMatch(/^update +token +alice\/laptop +key \(secret\)$/m);
    expect(result.stdout).toMatch(/^update +redemption +launch +count: 3 → 5$/m);
    expect(result.stdout).toMatch(/^create +redemption +spring/m);
    expect(result.stdout).toEndWith("plan: 1 to create, 5 to update, 7 unchanged\n");
    for (const secret of ["sk-rotated", "alice-pass-2", "epay-rotated", NEW_TOKEN_KEY, "epay-secret-value"])
      expect(result.stdout).not.toContain(secret);
    const json: Plan = await db.json(["apply", "-f", path, "--dry-run"]);
    expect(JSON.stringify(json)).not.toContain("rotated");
    expect(json.dry_run).toBe(true);
  });

  test("secrets given in the file are applied: key rotation, password, token key", async () => {
    const path = join(db.dir, "changed.yaml");
    expect((await db.run(["apply", "-f", path])).code).toBe(0);
    expect((await db.json(["channel", "show", "openai-main", "--with-key"])).key).toBe("sk-rotated-secret");
    expect((await db.run(["token", "reveal", "laptop", "--user", "alice"])).stdout.trim()).toBe(NEW_TOKEN_KEY);
    const sqlite = new Database(db.env.SQLITE_PATH!, { readonly: true });
    const { password } = sqlite.query("SELECT password FROM users WHERE username = 'alice'").get() as {
      password: string;
    };
    sqlite.close();
    expect(await Bun.password.verify("alice-pass-2", password)).toBe(true);
    expect((await db.json(["redemption", "list", "--keyword", "launch"])).total).toBe(5);
    expect(new Set((await db.json<Plan>(["apply", "-f", path])).steps.map((s) => s.action))).toEqual(
      new Set(["unchanged"]),
    );
  });

  test("a channel the server disabled automatically still counts as enabled", async () => {
    const sqlite = new Database(db.env.SQLITE_PATH!);
    sqlite.run("UPDATE channels SET status = 3 WHERE name = 'openai-main'");
    sqlite.close();
    const plan: Plan = await db.json(["apply", "-f", join(db.dir, "changed.yaml"), "--dry-run"]);
    expect(actions(plan)["channel:openai-main"]).toBe("unchanged");
  });
});

describe("the file format shown by apply --help", () => {
  test("applies as written", async () => {
    const fresh = await cliDatabase();
    try {
      const help = (await fresh.run(["apply", "--help"])).stdout;
      const example = help.slice(help.indexOf("\n  version: 1")).replace(/^ {2}/gm, "");
      const result = await fresh.run(["apply", "-f", "-"], example);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("applied: 4 created, 2 updated, 0 unchanged");
    } finally {
      fresh.drop();
    }
  });
});

describe("tollgate apply refuses a bad file with one line, before writing anything", () => {
  const cases: [string, string, string][] = [
    ["unknown section", "widgets: []\n", 'BAD: unknown section "widgets"'],
    ["unknown field", "channels:\n  - { name: x, prioity: 1 }\n", 'channels "x": unknown field "prioity"'],
    ["repeated name", "users:\n  - { username: bob }\n  - { username: bob }\n", 'users "bob" appears twice'],
    [
      "invalid YAML, with where",
      "channels:\n  - { name: [1, }\n",
      "BAD: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 17:",
    ],
    [
      "invalid value, with where",
      "channels:\n  - { name: x, type: 999, key: k, models: a, groups: default }\n",
      'channels "x": type must be a known channel type',
    ],
    ["missing required fields", "channels:\n  - { name: x, type: 1 }\n", 'channels "x": key is required'],
    [
      "a type no provider serves",
      "channels:\n  - { name: x, type: Replicate, key: k, models: a, groups: default }\n",
      'channels "x": channel type Replicate (56) has no provider in this gateway: choose another type',
    ],
    ["a root user", "users:\n  - { username: boss, role: root }\n", 'users "boss": apply cannot create a root user'],
    [
      "a token of nobody",
      "tokens:\n  - { user: ghost, name: t }\n",
      'tokens: user "ghost" does not exist and is not in the file\'s users',
    ],
    ["an unknown option", "options:\n  Nope: 1\n", 'options: unknown option "Nope"'],
    [
      "a bad option value",
      "options:\n  QuotaForNewUser: lots\n",
      "options.QuotaForNewUser: QuotaForNewUser must be a number",
    ],
    [
      "options that break a rule between options",
      "options:\n  ServerAddress: ''\n",
      "options.ServerAddress: clear the payment settings (PayAddress, EpayId, EpayKey) before removing the server address",
    ],
  ];
  for (const [what, text, message] of cases) {
    test(what, async () => {
      const before = snapshot(db);
      const path = write(`redemptions:\n  - { name: never-written, quota: 1 }\n${text}`, "bad.yaml");
      await expectRefusal(db, ["apply", "-f", path], message.replace("BAD", path));
      expect(snapshot(db)).toBe(before);
    });
  }

  test("a missing file is refused; no -f is a usage error", async () => {
    await expectRefusal(db, ["apply", "-f", join(db.dir, "none.yaml")], `${join(db.dir, "none.yaml")}: no such file`);
    expect((await db.run(["apply"])).code).toBe(2);
  });
});

describe("tollgate export", () => {
  test("writes the state in apply's format; secrets only with --with-secrets", async () => {
    const plain = (await db.run(["export"])).stdout;
    expect(plain).toContain("name: openai-main");
    for (const secret of ["sk-rotated-secret", "claude-secret", NEW_TOKEN_KEY, "epay-rotated-value", "EpayKey"])
      expect(plain).not.toContain(secret);
    expect(plain).not.toMatch(/^ *(password|key):/m);
    const secrets = (await db.run(["export", "--with-secrets"])).stdout;
    for (const secret of ["sk-rotated-secret", "claude-secret", NEW_TOKEN_KEY, "epay-rotated-value"])
      expect(secrets).toContain(secret);
    expect(secrets).not.toMatch(/^ *password:/m);
  });

  test("refuses to overwrite a file unless --force; writes JSON for .json", async () => {
    const out = join(db.dir, "state.json");
    expect((await db.run(["export", "-o", out])).code).toBe(0);
    expect(JSON.parse(await Bun.file(out).text())).toMatchObject({ version: 1 });
    await expectRefusal(db, ["export", "-o", out], `${out} already exists (--force replaces it)`);
    expect((await db.run(["export", "-o", out, "--force"])).code).toBe(0);
    expect((await db.run(["export", "--format", "xml"])).code).toBe(2);
  });

  test("export → apply on a fresh database reproduces the state (YAML and JSON)", async () => {
    for (const format of ["yaml", "json"]) {
      const dump = join(db.dir, `all.${format}`);
      expect((await db.run(["export", "--with-secrets", "--force", "-o", dump])).code).toBe(0);
      const fresh = await cliDatabase();
      try {
        expect((await fresh.run(["apply", "-f", dump])).code).toBe(0);
        expect((await fresh.run(["export"])).stdout).toBe((await db.run(["export"])).stdout);
        expect((await fresh.run(["token", "reveal", "laptop", "--user", "alice"])).stdout.trim()).toBe(NEW_TOKEN_KEY);
        expect((await fresh.json(["channel", "show", "claude", "--with-key"])).key).toBe("claude-secret");
        expect(new Set((await fresh.json<Plan>(["apply", "-f", dump])).steps.map((s) => s.action))).toEqual(
          new Set(["unchanged"]),
        );
      } finally {
        fresh.drop();
      }
    }
  });
});
