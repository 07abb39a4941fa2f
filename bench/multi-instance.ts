/**
 * Several instances on one database (issue #20): CPU per relayed call with 1 and with 3 instances of `serve` on
 * PostgreSQL and on MariaDB, sharing Redis, each on a fresh database. The load (wrk, 64 connections in all, split
 * over the instances) and the fake upstream run on the same two cores. The ratio compares the gateways' CPU per
 * call (utime + stime from /proc); the database and Redis servers' CPU is shown beside it (all their processes, so
 * on a shared machine other work counts there too). Target: 3 instances within 1.2x the CPU per call of one.
 * With --control, the same load on 1 and 3 instances that share nothing (each its own SQLite, no Redis): what
 * running three processes on these cores costs by itself, the floor under the shared figures.
 *
 *   bun bench/multi-instance.ts [--seconds 8] [--rounds 2] [--dialect postgres|mysql ...] [--control]
 */
import { SQL, spawn } from "bun";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cpuMicros } from "./proc";
import { provision, startScript } from "./relay";
import { CHAT } from "./relay-calls";
import { startGateway, type Gateway } from "./support";

const ADMIN = {
  postgres: process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  mysql: process.env.TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/test",
};
const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** The database and Redis servers' processes, whose CPU counts with the gateways'. */
const SERVER_PROCESSES = new Set(["postgres", "mariadbd", "mysqld", "redis-server"]);
const CONNECTIONS = 64;

type Dialect = keyof typeof ADMIN;

function serverPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (SERVER_PROCESSES.has(readFileSync(`/proc/${entry}/comm`, "utf8").trim())) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

const cpuOf = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + cpuMicros(pid);
    } catch {
      return sum;
    }
  }, 0);

async function freshDatabase(dialect: Dialect): Promise<{ dsn: string; drop(): Promise<void> }> {
  const name = `tg_bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = new SQL({ url: ADMIN[dialect], max: 1 });
  await admin.unsafe(
    `CREATE DATABASE ${name}${dialect === "mysql" ? " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin" : ""}`,
  );
  await admin.close();
  return {
    dsn: ADMIN[dialect].replace(/\/[^/?]*(\?|$)/, `/${name}$1`),
    async drop() {
      const sql = new SQL({ url: ADMIN[dialect], max: 1 });
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name}${dialect === "postgres" ? " WITH (FORCE)" : ""}`);
      await sql.close();
    },
  };
}

/** wrk on each instance at once (the connections split between them), each with its key; answers the calls made. */
async function load(gateways: Gateway[], keys: string[], seconds: number): Promise<number> {
  const each = Math.floor(CONNECTIONS / gateways.length);
  const runs = gateways.map(async (gateway, i) => {
    const proc = spawn({
      cmd: [
        "wrk",
        "-t1",
        `-c${each}`,
        `-d${seconds}s`,
        "-s",
        join(import.meta.dir, "wrk-post.lua"),
        gateway.url + CHAT.path,
      ],
      env: { ...process.env, WRK_BODY: CHAT.body, WRK_KEY: keys[i]! },
      stdout: "pipe",
      stderr: "inherit",
    });
    const out = await new Response(proc.stdout).text();
    await proc.exited;
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
    if (non2xx > 0) console.warn(`  ${non2xx} non-2xx replies from ${gateway.url}`);
    return Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  });
  return (await Promise.all(runs)).reduce((a, b) => a + b, 0);
}

interface Figures {
  callsPerSecond: number;
  /** The gateways' CPU per call. */
  cpuMicrosPerCall: number;
  /** The database and Redis servers' CPU per call (all their processes: on a shared machine, others' work too). */
  serverMicrosPerCall: number;
}

/** "sqlite": the control, instances sharing nothing (each on its own SQLite file, without Redis). */
async function measure(
  dialect: Dialect | "sqlite",
  instances: number,
  fakeUrl: string,
  seconds: number,
): Promise<Figures> {
  const database = dialect === "sqlite" ? undefined : await freshDatabase(dialect);
  const env: Record<string, string> = {
    SESSION_SECRET: "bench-secret-shared-by-every-instance-0123",
    INITIAL_ROOT_PASSWORD: "bench-root-pass",
    ...(database && { SQL_DSN: database.dsn, REDIS_CONN_STRING: REDIS }),
  };
  const gateways: Gateway[] = [];
  try {
    for (let i = 0; i < instances; i++) gateways.push(await startGateway({ env }));
    const keys: string[] = [];
    for (const gateway of database ? gateways.slice(0, 1) : gateways) keys.push(await provision(gateway, fakeUrl));
    while (keys.length < gateways.length) keys.push(keys[0]!);
    await load(gateways, keys, 2); // warm-up: JIT, pools, caches
    const pids = gateways.map((g) => g.proc.pid);
    const servers = serverPids();
    const [before, serversBefore] = [cpuOf(pids), cpuOf(servers)];
    const calls = await load(gateways, keys, seconds);
    const cpu = cpuOf(pids) - before;
    const serverCpu = cpuOf(servers) - serversBefore;
    return { callsPerSecond: calls / seconds, cpuMicrosPerCall: cpu / calls, serverMicrosPerCall: serverCpu / calls };
  } finally {
    for (const gateway of gateways) await gateway.stop();
    await database?.drop();
  }
}

export async function multiInstanceBench(
  options: { seconds?: number; rounds?: number; dialects?: Dialect[]; control?: boolean } = {},
) {
  const seconds = options.seconds ?? 8;
  const rounds = options.rounds ?? 2;
  console.log(
    "\nSeveral instances on one database (gateways' CPU per non-stream call; 3 instances target <= 1.2x one)",
  );
  const fake = await startScript("fake upstream", "fake-upstream-server.ts", [], 1);
  try {
    const dialects: (Dialect | "sqlite")[] = options.dialects ?? ["postgres", "mysql"];
    for (const dialect of options.control ? [...dialects, "sqlite" as const] : dialects) {
      const ratios: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const one = await measure(dialect, 1, fake.url, seconds);
        const three = await measure(dialect, 3, fake.url, seconds);
        const ratio = three.cpuMicrosPerCall / one.cpuMicrosPerCall;
        ratios.push(ratio);
        const figures = (f: Figures) =>
          `${f.callsPerSecond.toFixed(0)} calls/s, gateways ${f.cpuMicrosPerCall.toFixed(0)} µs/call (+ servers ${f.serverMicrosPerCall.toFixed(0)})`;
        const label = dialect === "sqlite" ? "control (nothing shared)" : dialect.padEnd(8);
        console.log(
          `  ${label} 1 instance ${figures(one)}; 3 instances ${figures(three)}; ratio ${ratio.toFixed(2)}  [target <= 1.20]`,
        );
      }
    }
  } finally {
    fake.proc.kill();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string" },
      rounds: { type: "string" },
      dialect: { type: "string", multiple: true },
      control: { type: "boolean" },
    },
  });
  await multiInstanceBench({
    seconds: values.seconds ? Number(values.seconds) : undefined,
    rounds: values.rounds ? Number(values.rounds) : undefined,
    dialects: values.dialect as Dialect[] | undefined,
    control: values.control,
  });
}
