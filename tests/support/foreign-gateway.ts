import { type CreateTableBuilder, type Kysely, sql } from "kysely";
import { createTestDatabase, type TestDatabase } from "./databases";
import type { DialectName } from "../../src/db/connect";

/**
 * A one-api or new-api database built from the column sets of compat.md §11 (one-api: the older, smaller sets),
 * on any of the three databases, filled with realistic rows: bcrypt passwords, 48-character keys, a multi-key
 * channel, options Tollgate knows and one it does not, used and unused codes, top-ups and logs.
 */
export type Product = "one-api" | "new-api";

type Kind = "id" | "int" | "text" | "float";
type Columns = [string, Kind][];

/** Columns of one kind, named in a space-separated list. */
const cols = (kind: Kind, names: string): Columns => names.split(" ").map((n) => [n, kind]);

const ONE_API: Record<string, Columns> = {
  users: [
    ["id", "id"],
    ...cols("text", "username password display_name email github_id wechat_id access_token group aff_code"),
    ...cols("int", "role status quota used_quota request_count inviter_id"),
  ],
  tokens: [
    ["id", "id"],
    ...cols("int", "user_id status created_time accessed_time expired_time remain_quota unlimited_quota used_quota"),
    ...cols("text", "key name models subnet"),
  ],
  channels: [
    ["id", "id"],
    ...cols("int", "type status weight created_time test_time response_time balance_updated_time used_quota priority"),
    ...cols("text", "key name base_url other models group model_mapping config openai_organization"),
    ["balance", "float"],
  ],
  abilities: [...cols("text", "group model"), ...cols("int", "channel_id enabled priority")],
  options: cols("text", "key value"),
  redemptions: [
    ["id", "id"],
    ...cols("int", "user_id status quota created_time redeemed_time"),
    ...cols("text", "key name"),
  ],
  logs: [
    ["id", "id"],
    ...cols("int", "user_id created_at type quota prompt_tokens completion_tokens channel_id elapsed_time is_stream"),
    ...cols("text", "content username token_name model_name system_prompt_reset"),
  ],
};

const NEW_API: Record<string, Columns> = {
  ...ONE_API,
  users: [
    ["id", "id"],
    ...cols(
      "text",
      "username password display_name email github_id discord_id oidc_id wechat_id telegram_id linux_do_id",
    ),
    ...cols("text", "access_token group aff_code setting remark stripe_customer"),
    ...cols("int", "role status quota used_quota request_count aff_count aff_quota aff_history inviter_id deleted_at"),
  ],
  tokens: [
    ["id", "id"],
    ...cols(
      "int",
      "user_id status created_time accessed_time expired_time remain_quota unlimited_quota model_limits_enabled used_quota cross_group_retry",
    ),
    ...cols("text", "key name model_limits allow_ips group deleted_at"),
  ],
  channels: [
    ...ONE_API.channels!.filter(([n]) => n !== "config"),
    ...cols("int", "auto_ban"),
    ...cols(
      "text",
      "test_model status_code_mapping other_info tag setting param_override header_override remark channel_info settings",
    ),
  ],
  redemptions: [...ONE_API.redemptions!, ...cols("int", "used_user_id expired_time deleted_at")],
  top_ups: [
    ["id", "id"],
    ...cols("int", "user_id amount create_time complete_time"),
    ["money", "float"],
    ...cols("text", "trade_no payment_method payment_provider status"),
  ],
  logs: [
    ["id", "id"],
    ...cols(
      "int",
      "user_id created_at type quota prompt_tokens completion_tokens use_time is_stream channel_id token_id",
    ),
    ...cols("text", "content username token_name model_name group ip request_id other"),
  ],
  tasks: [
    ["id", "id"],
    ...cols("int", "created_at updated_at user_id channel_id quota submit_time start_time finish_time"),
    ...cols("text", "task_id platform group action status fail_reason progress properties private_data data"),
  ],
  midjourneys: [
    ["id", "id"],
    ...cols("int", "code user_id submit_time start_time finish_time channel_id quota"),
    ...cols(
      "text",
      "action mj_id prompt prompt_en description state image_url video_url status progress fail_reason buttons properties",
    ),
  ],
  vendors: [["id", "id"], ...cols("text", "name")],
  two_fas: [["id", "id"], ...cols("int", "user_id"), ...cols("text", "secret")],
};

function column(builder: CreateTableBuilder<string, never>, name: string, kind: Kind, dialect: DialectName) {
  if (kind === "id")
    return dialect === "postgres"
      ? builder.addColumn(name, "bigserial", (c) => c.primaryKey())
      : builder.addColumn(name, "integer", (c) =>
          dialect === "sqlite" ? c.primaryKey().autoIncrement() : c.primaryKey().autoIncrement(),
        );
  if (kind === "int") return builder.addColumn(name, "bigint");
  if (kind === "float") return builder.addColumn(name, "double precision");
  return builder.addColumn(
    name,
    dialect === "mysql" && (name === "key" || name === "username") ? "varchar(191)" : "text",
  );
}

export async function createSchema(k: Kysely<any>, dialect: DialectName, product: Product): Promise<void> {
  for (const [table, columns] of Object.entries(product === "one-api" ? ONE_API : NEW_API)) {
    let builder = k.schema.createTable(table) as CreateTableBuilder<string, never>;
    for (const [name, kind] of columns) builder = column(builder, name, kind, dialect);
    await builder.execute();
  }
}

export const randomKey = (length = 48) => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => alphabet[b % alphabet.length]).join("");
};

export const bcrypt = (password: string) => Bun.password.hash(password, { algorithm: "bcrypt", cost: 4 });

export interface ForeignData {
  passwords: { root: string; alice: string; bob: string };
  /** Token keys as the old gateway stored them (without "sk-"). */
  keys: { alice: string; bob: string; short: string };
  quotaTotal: number;
  usedTotal: number;
  logCount: number;
  /** Sum of the log rows' quota (row i: logQuota(i)). */
  logQuotaTotal: number;
  /** created_at of the first log row; row i was written at logsFrom + i. */
  logsFrom: number;
  /** alice's system access token (the old gateway kept it in clear). */
  accessToken: string;
}

/** Only the columns the product's table has. */
const fit = (product: Product, table: string, row: Record<string, unknown>) => {
  const names = new Set((product === "one-api" ? ONE_API : NEW_API)[table]!.map(([n]) => n));
  return Object.fromEntries(Object.entries(row).filter(([n]) => names.has(n)));
};

export async function fill(
  k: Kysely<any>,
  dialect: DialectName,
  product: Product,
  upstreamUrl: string,
  logs = 40,
): Promise<ForeignData> {
  const now = Math.floor(Date.now() / 1000);
  const passwords = { root: "old-root-pass-1", alice: "alice-old-pass", bob: "bob-old-pass-9" };
  const users = [
    { id: 1, username: "root", role: 100, quota: 100_000_000, used_quota: 0, request_count: 0, aff_code: "R00t" },
    {
      id: 2,
      username: "alice",
      role: 1,
      quota: 7_000_000,
      used_quota: 123_456,
      request_count: 42,
      aff_code: "aB3d",
      access_token: "aliceAccessToken0123456789abcdef",
      email: "alice@example.com",
      github_id: "gh-alice",
      linux_do_id: "ld-7",
      aff_history: 500,
      setting: '{"language":"en"}',
    },
    {
      id: 5,
      username: "bob",
      role: 10,
      quota: 1_234_567,
      used_quota: 89,
      request_count: 3,
      aff_code: "",
      inviter_id: 2,
      telegram_id: "tg-bob",
      discord_id: "dc-bob",
      group: "vip",
    },
  ];
  for (const u of users)
    await k
      .insertInto("users")
      .values(
        fit(product, "users", {
          status: 1,
          display_name: u.username,
          group: "default",
          ...u,
          password: await bcrypt(passwords[u.username as keyof typeof passwords]),
        }),
      )
      .execute();
  const keys = { alice: randomKey(), bob: randomKey(), short: randomKey(32) };
  const tokens = [
    {
      id: 1,
      user_id: 2,
      key: keys.alice,
      name: "laptop",
      remain_quota: 5_000_000,
      unlimited_quota: 0,
      expired_time: -1,
    },
    {
      id: 2,
      user_id: 5,
      key: keys.bob,
      name: "server",
      remain_quota: 0,
      unlimited_quota: 1,
      expired_time: now + 86400,
      allow_ips: "127.0.0.1",
      model_limits_enabled: 1,
      model_limits: "gpt-4o-mini",
    },
    { id: 3, user_id: 5, key: keys.short, name: "ancient", remain_quota: 10, unlimited_quota: 0, expired_time: -1 },
  ];
  for (const t of tokens)
    await k
      .insertInto("tokens")
      .values(fit(product, "tokens", { status: 1, created_time: now - 100, accessed_time: now, used_quota: 7, ...t }))
      .execute();
  await k
    .insertInto("channels")
    .values(
      fit(product, "channels", {
        id: 3,
        type: 1,
        name: "openai-main",
        key: "sk-upstream-one\nsk-upstream-two",
        base_url: upstreamUrl,
        status: 1,
        models: "gpt-4o-mini,gpt-4o",
        group: "default,vip",
        priority: 10,
        weight: 5,
        created_time: now,
        model_mapping: '{"gpt-4":"gpt-4o"}',
        tag: "main",
        param_override: '{"temperature":0.5}',
        balance: 12.5,
        channel_info: '{"is_multi_key":true,"multi_key_size":2,"multi_key_mode":"polling"}',
      }),
    )
    .execute();
  for (const [key, value] of [
    ["SystemName", "Old Gateway"],
    ["QuotaForNewUser", "1000"],
    ["SomeRetiredSwitch", "true"],
  ])
    await k.insertInto("options").values({ key, value }).execute();
  await k
    .insertInto("redemptions")
    .values([
      fit(product, "redemptions", {
        id: 1,
        user_id: 1,
        key: randomKey(32),
        status: 1,
        name: "launch",
        quota: 500_000,
        created_time: now,
      }),
      fit(product, "redemptions", {
        id: 2,
        user_id: 1,
        key: randomKey(32),
        status: 3,
        name: "launch",
        quota: 500_000,
        created_time: now,
        redeemed_time: now,
        used_user_id: 5,
      }),
    ])
    .execute();
  if (product === "new-api")
    await k
      .insertInto("top_ups")
      .values({
        id: 1,
        user_id: 2,
        amount: 10,
        money: 7.3,
        trade_no: "USR2NOabcdef1700000000",
        payment_method: "alipay",
        payment_provider: "epay",
        create_time: now,
        complete_time: now,
        status: "success",
      })
      .execute();
  if (product === "new-api") {
    await k.insertInto("two_fas").values({ id: 1, user_id: 2, secret: "JBSWY3DPEHPK3PXP" }).execute();
    const task = { user_id: 2, channel_id: 3, quota: 300, submit_time: now - 60, status: "SUCCESS", progress: "100%" };
    await k
      .insertInto("tasks")
      .values({
        id: 1,
        ...task,
        task_id: "task-1",
        platform: "suno",
        action: "MUSIC",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await k
      .insertInto("midjourneys")
      .values({ id: 1, ...task, mj_id: "mj-1", action: "IMAGINE", prompt: "a cat", code: 1 })
      .execute();
  }
  await insertLogs(k, dialect, product, logs, now);
  return {
    passwords,
    keys,
    quotaTotal: users.reduce((s, u) => s + u.quota, 0),
    usedTotal: users.reduce((s, u) => s + u.used_quota, 0),
    logCount: logs,
    logQuotaTotal: logQuotaSum(0, logs),
    logsFrom: now - logs,
    accessToken: "aliceAccessToken0123456789abcdef",
  };
}

/** The quota of log row `i` (0-based): varied, so a sum proves every row arrived once. */
export const logQuota = (i: number) => 100 + (i % 97);

/** Sum of logQuota over rows [from, to). */
export const logQuotaSum = (from: number, to: number) => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += logQuota(i);
  return sum;
};

/**
 * The numbers 0 … count-1 as one SELECT: a generated series on PostgreSQL; elsewhere a recursive count to the cube
 * root, joined with itself thrice (MariaDB stops a recursion at 1 000 rounds by default).
 */
function numbers(dialect: DialectName, count: number): string {
  if (dialect === "postgres") return `SELECT i FROM generate_series(0, ${count - 1}) AS g(i)`;
  const side = Math.max(1, Math.ceil(Math.cbrt(count)));
  return (
    `WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < ${side - 1}) ` +
    `SELECT (a.i * ${side} + b.i) * ${side} + c.i AS i FROM d a CROSS JOIN d b CROSS JOIN d c ` +
    `WHERE (a.i * ${side} + b.i) * ${side} + c.i < ${count}`
  );
}

/**
 * `count` consume logs of alice and bob (ids 1 … count, row i written at now - count + i), made by the database in
 * ONE statement so a test can ask for a million in seconds.
 */
export async function insertLogs(
  k: Kysely<any>,
  dialect: DialectName,
  product: Product,
  count: number,
  now: number,
): Promise<void> {
  if (count === 0) return;
  const alice = "i % 2 = 0";
  const values = fit(product, "logs", {
    id: "i + 1",
    user_id: `CASE WHEN ${alice} THEN 2 ELSE 5 END`,
    created_at: `${now - count} + i`,
    type: "2",
    quota: "100 + i % 97",
    prompt_tokens: "10",
    completion_tokens: "20",
    channel_id: "3",
    token_id: "1",
    model_name: "'gpt-4o-mini'",
    username: `CASE WHEN ${alice} THEN 'alice' ELSE 'bob' END`,
    token_name: "'laptop'",
    content: "''",
    group: "'default'",
    other: "'{}'",
  }) as Record<string, string>;
  const quote = (name: string) => (dialect === "mysql" ? `\`${name}\`` : `"${name}"`);
  const columns = Object.keys(values).map(quote).join(", ");
  await sql
    .raw(
      `INSERT INTO logs (${columns}) SELECT ${Object.values(values).join(", ")} FROM (${numbers(dialect, count)}) AS rows_made`,
    )
    .execute(k);
}

export interface ForeignDatabase {
  database: TestDatabase;
  /** What `--dsn` takes: the SQLite file, or the server's URL. */
  dsn: string;
  data: ForeignData;
}

/** A fresh source database of the product on the dialect, closed again so the import opens it on its own. */
export async function createForeignDatabase(
  dialect: DialectName,
  product: Product,
  upstreamUrl: string,
  logs = 40,
): Promise<ForeignDatabase> {
  const database = await createTestDatabase(dialect);
  const db = database.open();
  const k = db.k as unknown as Kysely<any>;
  await createSchema(k, dialect, product);
  const data = await fill(k, dialect, product, upstreamUrl, logs);
  if (dialect === "sqlite") db.sqliteHandle!.run("PRAGMA journal_mode = DELETE");
  await db.close();
  return { database, dsn: dialect === "sqlite" ? database.sqlitePath : database.dsn, data };
}
