/**
 * The log screens at scale (issue #4 §3). For each size (1M and 10M rows; BENCH_LOG_ROWS=200000 or
 * "1000000,10000000" to choose) seeds a temp SQLite file through the real migrations — ~500 users and
 * 50 models with skewed (Zipf) popularity, 20 channels, 30 days of rows in time order, 95% consume rows,
 * plus a minute of live traffic — then times the service calls the API makes (median of RUNS, after the
 * first call, which is printed too): a filtered first page and its stat, a deep page of the unfiltered admin
 * list and of the heaviest user's own list (the targets: ≤ 50 ms at 10M), then wider pages and stats.
 *
 *   bun bench/logs.ts          (or as part of `bun run bench`)
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { UserRow } from "../src/db/schema";
import { loadConfig } from "../src/service/config";
import { openServiceContext, type ServiceContext } from "../src/service/context";
import type { LogQuery, LogScope } from "../src/service/logs/filter";
import { listLogs } from "../src/service/logs/list";
import { logStat } from "../src/service/logs/stat";
import { Role } from "../src/shared/constants";
import { median } from "./support";

const SIZES = (process.env.BENCH_LOG_ROWS || "1000000,10000000").split(",").map(Number);
const RUNS = 7;
const TARGET_MS = 50;
const USERS = 500;
const MODELS = 50;
const CHANNELS = 20;
const DAYS = 30;
const LIVE_ROWS = 500;
const ROWS_PER_INSERT = 500;
const ROWS_PER_TRANSACTION = 250_000;
const COLUMNS = [
  "user_id",
  "created_at",
  "type",
  "username",
  "token_name",
  "token_id",
  "model_name",
  "quota",
  "prompt_tokens",
  "completion_tokens",
  "use_time",
  "is_stream",
  "channel_id",
  "group",
  "ip",
  "request_id",
  "other",
];

/** A fast deterministic generator (xorshift32), so every run seeds the same rows. */
function random(seed = 2463534242) {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** Picks 0..n-1 with probability ∝ 1/(rank+1): a few heavy users and popular models, a long tail. */
function zipf(n: number, next: () => number): () => number {
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1));
  const sum = weights.reduce((a, b) => a + b);
  let acc = 0;
  const cdf = weights.map((w) => (acc += w / sum));
  return () => {
    const r = next();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const userId = (rank: number) => rank + 1;
const username = (rank: number) => `user${rank}`;
const modelName = (rank: number) => `model-${rank}`;
const groupOf = (rank: number) => ["default", "default", "default", "vip", "svip"][rank % 5]!;
const channelOf = (model: number, pick: number) => 1 + ((model * 7 + pick * 3) % CHANNELS);
const otherOf = Array.from({ length: CHANNELS + 1 }, (_, channel) =>
  JSON.stringify({
    frt: 812,
    model_ratio: 2.5,
    completion_ratio: 4,
    cache_ratio: 0.5,
    cache_tokens: 0,
    model_price: -1,
    group_ratio: 1,
    user_group_ratio: -1,
    upstream_model_name: "model-upstream",
    is_model_mapped: false,
    usage_source: "upstream",
    admin_info: { use_channel: [channel] },
  }),
);

/**
 * Writes `count` rows from `from` to `to` (unix s, in time order) with multi-row inserts in big transactions,
 * the way a bulk load would: the log indexes are dropped first and rebuilt after (sorted, multi-threaded).
 */
function seed(path: string, count: number, from: number, to: number): void {
  const db = new Database(path);
  for (const pragma of [
    "journal_mode = MEMORY",
    "synchronous = OFF",
    "cache_size = -2000000",
    "threads = 2",
    "temp_store = MEMORY",
  ])
    db.run(`PRAGMA ${pragma}`);
  for (let id = 1; id <= CHANNELS; id++) {
    db.run("INSERT INTO channels (id, type, key, name, created_time, models) VALUES (?, 1, 'sk-bench', ?, 0, '')", [
      id,
      `channel-${id}`,
    ]);
  }
  const indexes = db
    .query<{ name: string; sql: string }, []>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'logs' AND sql IS NOT NULL",
    )
    .all();
  for (const index of indexes) db.run(`DROP INDEX ${index.name}`);
  const next = random();
  const pickUser = zipf(USERS, next);
  const pickModel = zipf(MODELS, next);
  const row = `(${COLUMNS.map(() => "?").join(",")})`;
  const insert = db.prepare(
    `INSERT INTO logs (${COLUMNS.map((c) => `"${c}"`).join(",")}) VALUES ${Array(ROWS_PER_INSERT).fill(row).join(",")}`,
  );
  const values: (string | number)[] = new Array(ROWS_PER_INSERT * COLUMNS.length);
  const span = to - from;
  let i = 0;
  const chunk = db.transaction((rows: number) => {
    for (let done = 0; done < rows; done += ROWS_PER_INSERT) {
      let p = 0;
      for (let j = 0; j < ROWS_PER_INSERT; j++, i++) {
        const user = pickUser();
        const model = pickModel();
        const r = next();
        const type = r < 0.95 ? 2 : r < 0.98 ? 5 : r < 0.99 ? 1 : r < 0.995 ? 4 : 3;
        const billed = type === 2 || type === 5;
        const channel = billed ? channelOf(model, r < 0.5 ? 0 : 1) : 0;
        const token = 1 + (user % 3 === 0 ? 0 : (next() * 3) | 0);
        values[p++] = userId(user);
        values[p++] = from + Math.floor((i * span) / count);
        values[p++] = type;
        values[p++] = username(user);
        values[p++] = `key-${token}`;
        values[p++] = user * 3 + token;
        values[p++] = billed ? modelName(model) : "";
        values[p++] = type === 2 ? 50 + ((next() * 50_000) | 0) : 0;
        values[p++] = billed ? (next() * 5000) | 0 : 0;
        values[p++] = type === 2 ? (next() * 2000) | 0 : 0;
        values[p++] = (next() * 30) | 0;
        values[p++] = r < 0.6 ? 1 : 0;
        values[p++] = channel;
        values[p++] = groupOf(user);
        values[p++] = "10.0.0.1";
        values[p++] = `req-${i}`;
        values[p++] = type === 2 ? otherOf[channel]! : "";
      }
      insert.run(...values);
    }
  });
  for (let done = 0; done < count; done += ROWS_PER_TRANSACTION) chunk(Math.min(ROWS_PER_TRANSACTION, count - done));
  for (const index of indexes) db.run(index.sql);
  db.run("PRAGMA journal_mode = WAL");
  db.close();
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);
const fmtRows = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

async function timed(work: () => Promise<unknown>): Promise<{ first: number; median: number }> {
  const runs: number[] = [];
  for (let k = 0; k <= RUNS; k++) {
    const started = performance.now();
    await work();
    runs.push(performance.now() - started);
  }
  return { first: runs[0]!, median: median(runs.slice(1)) };
}

async function measure(ctx: ServiceContext, now: number): Promise<void> {
  const admin = { id: 1, role: Role.Root } as UserRow;
  const heaviest = { id: userId(0), role: Role.Common } as UserRow;
  const list =
    (actor: UserRow, scope: LogScope, query: LogQuery, page = 1) =>
    () =>
      listLogs(ctx, actor, scope, query, { page, pageSize: 10 });
  const stat = (actor: UserRow, scope: LogScope, query: LogQuery) => () => logStat(ctx, actor, scope, query);
  const days = (n: number) => ({ start_timestamp: String(now - n * 86_400), end_timestamp: String(now + 3600) });
  const filtered = { username: username(9), model_name: modelName(2), ...days(3) };
  const cases: [string, () => Promise<unknown>][] = [
    ["filtered first page: username (10th heaviest) + model + last 3 days", list(admin, "all", filtered)],
    ["deep page: page 5000 of the unfiltered admin list", list(admin, "all", {}, 5000)],
    ["deep page: page 5000 of the heaviest user's own list", list(heaviest, "own", {}, 5000)],
    ["stat: username + model + last 3 days", stat(admin, "all", filtered)],
    ["everyone's rows, last 3 days, first page", list(admin, "all", days(3))],
    ["type 2 (consume), last 3 days, first page", list(admin, "all", { type: "2", ...days(3) })],
    ["token name only, last 3 days, first page", list(admin, "all", { token_name: "key-1", ...days(3) })],
    ["stat: everyone, last 24 h", stat(admin, "all", days(1))],
    ["stat: the heaviest user's own, last 7 days", stat(heaviest, "own", days(7))],
  ];
  for (const [name, work] of cases) {
    const t = await timed(work);
    const flag = t.median <= TARGET_MS ? "" : "  (over target)";
    console.log(`  ${name}: ${ms(t.median)} ms  [target <= ${TARGET_MS} ms]  (first call ${ms(t.first)} ms)${flag}`);
  }
}

async function benchSize(rows: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "tollgate-logs-bench-"));
  const path = join(dir, "tollgate.db");
  const config = loadConfig({ SQLITE_PATH: path });
  try {
    await (await openServiceContext(config)).close();
    const now = Math.floor(Date.now() / 1000);
    const began = performance.now();
    seed(path, rows - LIVE_ROWS, now - DAYS * 86_400, now - 60);
    const seededMs = performance.now() - began;
    const ctx = await openServiceContext(config);
    try {
      const live = new Database(path);
      live.run(`INSERT INTO logs (user_id, created_at, type, username, model_name, quota, prompt_tokens, completion_tokens)
        SELECT uid, ${now} - abs(random() % 60), 2, 'user' || (uid - 1), 'model-0', 100, 200, 50
        FROM (SELECT 1 + abs(random() % ${USERS}) AS uid FROM logs LIMIT ${LIVE_ROWS})`);
      const heaviest = live
        .query<{ n: number }, []>(`SELECT count(*) AS n FROM logs WHERE user_id = ${userId(0)}`)
        .get()!.n;
      live.close();
      const size = statSync(path).size / 1024 ** 3;
      console.log(
        `\n${fmtRows(rows)} log rows: seeded in ${seconds(seededMs)} s (file ${size.toFixed(2)} GiB, indexes included; heaviest user ${heaviest} rows)`,
      );
      await measure(ctx, Math.floor(Date.now() / 1000));
    } finally {
      await ctx.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function logsBench(): Promise<void> {
  console.log("\nLog screens at scale (issue #4 §3): SQLite, the service calls behind GET /api/log/ and /api/log/stat");
  console.log(
    `  load average at start: ${loadavg()[0]!.toFixed(2)} (2 cores; figures are unreliable when this is well above 0.5)`,
  );
  for (const rows of SIZES) await benchSize(rows);
}

if (import.meta.main) await logsBench();
