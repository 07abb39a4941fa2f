/**
 * Several instances on one database (issue #20): CPU per relayed call with 1 and with 3 instances of `serve` on
 * PostgreSQL and on MariaDB, sharing Redis, each on a fresh database. The load (wrk, 64 connections in all, split
 * over the instances) and the fake upstream run on the same two cores. The ratio compares the gateways' CPU per
 * call (utime + stime from /proc); the database and Redis servers' CPU is shown beside it (all their processes, so
 * on a shared machine other work counts there too). Target: 3 instances within 1.2x the CPU per call of one.
 * With --control, the same load on 1 and 3 instances that share nothing (each its own SQLite, no Redis): what
 * running three processes on these cores costs by itself, the floor under the shared figures.
 *
 * Each line also gives what the shared servers did per 1,000 calls (multi-instance-counters.ts). --binary (repeatable)
 * measures built binaries in turn, within each round, for A/B; --profile DIR writes a CPU profile (markdown) of the
 * first instance of each run into DIR/<dialect>-<instances> (the profiler's own cost then counts in that run's figures).
 *
 *   bun bench/multi-instance.ts [--seconds 8] [--rounds 2] [--dialect postgres|mysql ...] [--control]
 *     [--binary PATH ...] [--profile DIR] [--warm-up SECONDS per instance, default 2]
 */
import { SQL, spawn } from "bun";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Counters, perThousandCalls, serverCounters } from "./multi-instance-counters";
import { contextSwitches, cpuMicros, cpuMicrosByThread, minorFaults } from "./proc";
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
/**
 * Load before measuring (JIT, pools, caches), per instance: the JIT tiers code up by how often it runs, and three
 * instances each serve a third of the calls, so each gets three times as long. With the same 2 s for all, the first
 * seconds measured of each of the three still compiled (the JIT worker thread alone was ~10 µs per call of the gap).
 */
const WARM_UP_SECONDS = 2;

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

/** wrk on each instance at once (the connections split between them), each with its key; answers the calls each made. */
async function load(gateways: Gateway[], keys: string[], seconds: number): Promise<number[]> {
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
  return Promise.all(runs);
}

interface Figures {
  callsPerSecond: number;
  /** The gateways' CPU per call. */
  cpuMicrosPerCall: number;
  /** The database and Redis servers' CPU per call (all their processes: on a shared machine, others' work too). */
  serverMicrosPerCall: number;
  /** The shared servers' counters per 1,000 calls, as one line. */
  counters: string;
  /** The first instance's CPU per call by thread (µs). */
  threads: string;
}

interface Build {
  label: string;
  /** The command that runs `serve` (default: this worktree's source). */
  command?: string[];
}

/** The command that runs `serve` for a build; with a profile folder, under Bun's CPU profiler (source only). */
const serveCommand = (build: Build, profileDir?: string) => {
  const [program, ...args] = build.command ?? ["bun", join(import.meta.dir, "..", "src/main.ts"), "serve"];
  return profileDir ? [program!, "--cpu-prof-md", `--cpu-prof-dir=${profileDir}`, ...args] : [program!, ...args];
};

/**
 * One process's CPU per call by thread (µs, the threads above 0.5), its main thread's context switches and its minor
 * page faults (each of several instances, less busy, has its allocator give back and map again more pages per call).
 */
function threadFigures(pid: number) {
  const [threads, switches, faults] = [cpuMicrosByThread(pid), contextSwitches(pid), minorFaults(pid)];
  return (calls: number) => {
    const perCall = [...cpuMicrosByThread(pid)]
      .map(([name, micros]) => [name, (micros - (threads.get(name) ?? 0)) / calls] as const)
      .filter(([, micros]) => micros >= 0.5)
      .sort((a, b) => b[1] - a[1])
      .map(([name, micros]) => `${name} ${micros.toFixed(1)}`);
    const now = contextSwitches(pid);
    const perThousand = (n: number) => ((n * 1000) / calls).toFixed(0);
    return `${perCall.join(", ")} (per 1,000 calls: main thread switches ${perThousand(now.voluntary - switches.voluntary)} waits, ${perThousand(now.preempted - switches.preempted)} preempted; ${perThousand(minorFaults(pid) - faults)} page faults)`;
  };
}

/** "sqlite": the control, instances sharing nothing (each on its own SQLite file, without Redis). */
async function measure(
  dialect: Dialect | "sqlite",
  instances: number,
  fakeUrl: string,
  seconds: number,
  build: Build,
  warmUpSeconds: number,
  profileDir?: string,
): Promise<Figures> {
  const database = dialect === "sqlite" ? undefined : await freshDatabase(dialect);
  const env: Record<string, string> = {
    SESSION_SECRET: "bench-secret-shared-by-every-instance-0123",
    INITIAL_ROOT_PASSWORD: "bench-root-pass",
    ...(database && { SQL_DSN: database.dsn, REDIS_CONN_STRING: REDIS }),
  };
  const gateways: Gateway[] = [];
  try {
    for (let i = 0; i < instances; i++) {
      const profiled = i === 0 && profileDir ? join(profileDir, `${dialect}-${instances}`) : undefined;
      gateways.push(await startGateway({ env, command: serveCommand(build, profiled) }));
    }
    const keys: string[] = [];
    for (const gateway of database ? gateways.slice(0, 1) : gateways) keys.push(await provision(gateway, fakeUrl));
    while (keys.length < gateways.length) keys.push(keys[0]!);
    await load(gateways, keys, warmUpSeconds * instances);
    const pids = gateways.map((g) => g.proc.pid);
    const servers = serverPids();
    const countersBefore: Counters = await serverCounters(dialect, database?.dsn, REDIS);
    const threadsOfFirst = threadFigures(pids[0]!);
    const [before, serversBefore] = [cpuOf(pids), cpuOf(servers)];
    const each = await load(gateways, keys, seconds);
    const calls = each.reduce((a, b) => a + b, 0);
    const threads = threadsOfFirst(each[0]!);
    if (profileDir) console.log(`    calls per instance (the first profiled): ${each.join(", ")}`);
    const cpu = cpuOf(pids) - before;
    const serverCpu = cpuOf(servers) - serversBefore;
    const counters = perThousandCalls(countersBefore, await serverCounters(dialect, database?.dsn, REDIS), calls);
    return {
      callsPerSecond: calls / seconds,
      cpuMicrosPerCall: cpu / calls,
      serverMicrosPerCall: serverCpu / calls,
      counters,
      threads,
    };
  } finally {
    for (const gateway of gateways) await gateway.stop();
    await database?.drop();
  }
}

export async function multiInstanceBench(
  options: {
    seconds?: number;
    rounds?: number;
    dialects?: Dialect[];
    control?: boolean;
    binaries?: string[];
    profileDir?: string;
    warmUpSeconds?: number;
  } = {},
) {
  const builds: Build[] = options.binaries?.length
    ? options.binaries.map((path) => ({ label: path, command: [path, "serve"] }))
    : [{ label: "" }];
  const seconds = options.seconds ?? 8;
  const rounds = options.rounds ?? 2;
  console.log(
    "\nSeveral instances on one database (gateways' CPU per non-stream call; 3 instances target <= 1.2x one)",
  );
  const fake = await startScript("fake upstream", "fake-upstream-server.ts", [], 1);
  try {
    const dialects: (Dialect | "sqlite")[] = options.dialects ?? ["postgres", "mysql"];
    for (const dialect of options.control ? [...dialects, "sqlite" as const] : dialects) {
      for (let round = 0; round < rounds; round++) {
        for (const build of builds) {
          const warmUp = options.warmUpSeconds ?? WARM_UP_SECONDS;
          const one = await measure(dialect, 1, fake.url, seconds, build, warmUp, options.profileDir);
          const three = await measure(dialect, 3, fake.url, seconds, build, warmUp, options.profileDir);
          const ratio = three.cpuMicrosPerCall / one.cpuMicrosPerCall;
          const figures = (f: Figures) =>
            `${f.callsPerSecond.toFixed(0)} calls/s, gateways ${f.cpuMicrosPerCall.toFixed(0)} µs/call (+ servers ${f.serverMicrosPerCall.toFixed(0)})`;
          const label = `${build.label ? `${build.label} ` : ""}${dialect === "sqlite" ? "control (nothing shared)" : dialect.padEnd(8)}`;
          console.log(
            `  ${label} 1 instance ${figures(one)}; 3 instances ${figures(three)}; ratio ${ratio.toFixed(2)}  [target <= 1.20]`,
          );
          console.log(
            `    µs per call by thread of the first instance: 1 instance ${one.threads}; 3 instances ${three.threads}`,
          );
          if (one.counters) console.log(`    per 1,000 calls, 1 instance: ${one.counters}`);
          if (three.counters) console.log(`    per 1,000 calls, 3 instances: ${three.counters}`);
        }
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
      binary: { type: "string", multiple: true },
      profile: { type: "string" },
      "warm-up": { type: "string" },
    },
  });
  // A compiled binary would take the profiler's flags for its own arguments.
  if (values.profile && values.binary) throw new Error("--profile runs the source; leave out --binary");
  await multiInstanceBench({
    seconds: values.seconds ? Number(values.seconds) : undefined,
    rounds: values.rounds ? Number(values.rounds) : undefined,
    dialects: values.dialect as Dialect[] | undefined,
    control: values.control,
    binaries: values.binary,
    profileDir: values.profile,
    warmUpSeconds: values["warm-up"] ? Number(values["warm-up"]) : undefined,
  });
}
