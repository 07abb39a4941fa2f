/**
 * Open streams (issue #25): the traffic a gateway really sees. A fake (bench/drip-upstream.ts) waits before the
 * first token and then drips chunks; a client (bench/stream-client.ts) keeps N calls open at once. For each N of a
 * ladder, the bare forwarder, Tollgate and Portkey (bench/portkey.ts; --no-portkey leaves it out) each run on a
 * fresh process pinned to CPU 0 (fake and client on CPU 1), in turn, for --rounds rounds; the figures are the
 * medians of the rounds and the ratios are taken within a round.
 * Then the same with non-stream calls the fake answers after 10 s.
 * --translated (on with --full) adds, for each Tollgate build, the same streams translated: an OpenAI client's calls
 * of the bench's Claude model, relayed to an Anthropic channel whose fake drips Anthropic Messages events (the
 * usual translated stream: a chat app on a Claude channel), held against the forwarder and the build's own
 * same-dialect streams of the round.
 *
 * The window opens after each slot has run --settle-calls whole calls (streams; default 2) and then (both shapes),
 * once the server's compiler threads have used under 1 % of its CPU over 5 s, at most --settle-max-s later (default
 * 120; 0: at once, as before session 24): the engine keeps compiling a call's path to its last tier for its first
 * ~15 000 calls (at N 1 000, ~50 s), and a window opened before measured that work and the code's slower tiers
 * beside the forwarder, whose code is tiny and settles at once. The wait is printed ("settle s").
 *
 * Per N, over the client's whole run: the calls started, and how each ended. After the window the client drains: it
 * starts no new call and waits for every call it started to end, completed (status 200, all its chunks and [DONE])
 * or failed (another status, a connection closed mid-call, a truncated stream), up to a bound of two calls' length
 * plus every open call's remaining chunks at 10 000 a second (a third of what the fake's and client's core was seen
 * to deliver); a call still open then is stalled. The drain's chunks are only counted, not timed, and the server is
 * not measured through it. From the window alone: the chunks (non-stream: calls) relayed per second, the server's
 * CPU per relayed chunk (per call for non-stream) from /proc (and split: the main thread's user and kernel time, the
 * other threads'), the added inter-chunk gap p50/p99 (the client's gap
 * less the fake's), the first byte's delay over the fake's wait, the RSS at the plateau and per open call over the
 * process's idle RSS (after a short warm-up, whose calls are cut at its end), and the fake's and client's CPU per
 * chunk (their core, shared, is the limit past N ≈ 1 000, where they deliver fewer chunks a second than asked).
 * --gc has each Tollgate build's engine log its collections (bench/gc-log.ts; the logging itself lengthens each pause
 * a little) and prints, per N, what its collector did in the window: full and eden collections, their mean pauses and
 * the program's stops a second, the delays the added gap's p99 is made of.
 * The slots' first calls start spread over --ramp-ms (default: --first-ms); a slot starts its next call when one ends,
 * and every call lasts about as long, so the calls keep those phases: a ramp shorter than a call bunches the calls'
 * starts and ends into waves (with the defaults, every 4 s, over 2 s), where a ramp of a whole call spreads them as
 * calls arriving at random would.
 * Every process is started with its file-descriptor limit raised to the hard limit (prlimit): each open stream holds
 * two sockets in the server, so N stays below half that limit (this container's is 20 000, hence 9 000 at the top).
 *
 *   bun bench/streams.ts [--full] [--n 500,2000] [--rounds 1] [--first-ms 2000] [--ramp-ms 2000] [--chunks 100]
 *                        [--interval-ms 20] [--measure-s 8] [--settle-calls 2] [--settle-max-s 120] [--no-plain]
 *                        [--no-portkey] [--prompt-kb 0] [--source] [--translated] [--gc] [--binary dist/tollgate ...]
 *
 * Default: N = 500 and 2 000, one round (about twelve minutes with Portkey, the drains and the waits for the
 * compilers included); --full: N = 500, 2 000, 5 000, 9 000, three rounds.
 * Several --binary builds are measured in turn after the forwarder, each N and round: an A/B comparison in one run.
 */
import { spawn, type Subprocess } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { portkeyScript, startPortkey } from "./portkey";
import { describeWindow, GC_LOG_ENV, GcLog, type GcTotals, inWindow } from "./gc-log";
import { compilerMicros, cpuMicros, mainThreadTimes, rssBytes, sampleRss } from "./proc";
import { fmt, load, provision, table, type Target } from "./relay";
import { CLAUDE_MODEL } from "./relay-calls";
import { freePort, median, ROOT, startGateway, untilAnswering } from "./support";

const SERVER_CPU = 0;
const CLIENT_CPU = 1;
/** The open-file limit every process here gets (the container's hard limit caps it; a stream takes two sockets in the server). */
const FD_LIMIT = Number(/Max open files\s+\d+\s+(\d+)/.exec(readFileSync("/proc/self/limits", "utf8"))?.[1] ?? 1024);
const NON_STREAM_LATENCY_MS = 10_000;
const WARM_STREAMS = 100;
const PORTKEY = "Portkey";

const withFds = (cmd: string[]) => ["prlimit", `--nofile=${FD_LIMIT}`, ...cmd];
const pinned = (cpu: number, cmd: string[]) => ["taskset", "-c", String(cpu), ...withFds(cmd)];

export interface StreamsOptions {
  ladder: number[];
  rounds: number;
  firstMs: number;
  /** Streams: the slots' first calls start spread over this long (the calls' phases after: see `--ramp-ms`). */
  rampMs: number;
  chunks: number;
  intervalMs: number;
  measureMs: number;
  /** Streams: whole calls' lengths each slot runs before the window opens, so that it opens on a steady state. */
  settleCalls: number;
  /** Then the window waits for the server's compiler to go quiet, at most this long (0: it opens at once). */
  settleMaxMs: number;
  plain: boolean;
  source: boolean;
  /** The size of each call's prompt in KiB (0: a two-letter prompt). */
  promptKb: number;
  /** Tollgate builds to measure (each beside the forwarder); empty: dist/tollgate, or the source without it. */
  binaries: string[];
  /** Measure Portkey too (when its package is installed). */
  portkey: boolean;
  /** Measure each build's streams translated too (OpenAI client, Anthropic channel). */
  translated: boolean;
  /** Read each Tollgate build's collector log and report its collections in the window. */
  gc: boolean;
}

interface ClientFigures {
  /** Calls the client started over its run; each ended completed or failed, or was still open when the drain timed out. */
  started: number;
  completed: number;
  failed: number;
  stalled: number;
  completedInWindow: number;
  chunksInWindow: number;
  openAtEnd: number;
  /** How long the client waited for its open calls after the window. */
  drainMs: number;
  /** The client's own CPU over the window, µs. */
  cpuInWindow: number;
  gapP50: number;
  gapP99: number;
  firstP50: number;
  firstP99: number;
  /** A stream's chunks: the time from the fake's send to the client's receipt (see stream-client.ts). */
  latencyP50: number;
  latencyP99: number;
  firstFailure?: string;
  firstStall?: string;
}

interface Run extends ClientFigures {
  cpuPerUnitMicros: number;
  /** The same CPU split: the main thread's in the program and in the kernel; the other threads' (compiler, fetch). */
  mainUserPerUnitMicros: number;
  mainSysPerUnitMicros: number;
  othersPerUnitMicros: number;
  /** The fake's and the client's CPU (their shared core) per chunk (non-stream: call) in the window. */
  loadCpuPerUnitMicros: number;
  /** Chunks (non-stream: calls) the client received per second in the window. */
  unitsPerSecond: number;
  idleRss: number;
  plateauRss: number;
  rssPerOpen: number;
  /** How long after the warm-up the window waited for the target's compiler to go quiet. */
  settleMs: number;
  /** What the target's collector did in the window (with --gc, for Tollgate). */
  gc?: ReturnType<typeof inWindow>;
}

/** Each Tollgate target's collector log, with --gc. */
const gcLogs = new Map<Target, GcLog>();

async function startProcess(
  name: string,
  cmd: string[],
  url: string,
  env: Record<string, string> = {},
): Promise<Subprocess> {
  const proc = spawn({ cmd, env: { ...process.env, ...env }, stdout: "ignore", stderr: "inherit" });
  await untilAnswering(name, proc, url);
  return proc;
}

async function stop(proc: Subprocess) {
  proc.kill("SIGTERM");
  await proc.exited;
}

interface Shape {
  stream: boolean;
  rampMs: number;
  warmMs: number;
  measureMs: number;
  waitMs: number;
  /** One call's length, for the warm-up. */
  callMs: number;
  /** The prompt's size (0: "hi"). */
  promptKb: number;
  /** The content chunks of a whole stream, which the client checks (0: not checked). */
  chunks: number;
  /** After the warm-up, the window waits for the target's compiler to go quiet, at most this long (0: it does not). */
  settleMaxMs: number;
}

/** The compiler is quiet when its threads used less than this share of the process's CPU over the last QUIET_SPAN_MS. */
const QUIET_SHARE = 0.01;
const QUIET_SPAN_MS = 5000;

/**
 * Waits until the engine's compiler threads in the process have gone quiet (the calls' code has reached its last
 * tier), at most `maxMs`; returns how long it waited. The share is of the process's CPU, not of a core: at a low
 * call rate the compiler's work comes as slowly as the calls.
 */
async function untilCompilerQuiet(pid: number, maxMs: number): Promise<number> {
  const began = performance.now();
  const samples: { compiler: number; all: number }[] = [];
  const back = QUIET_SPAN_MS / 1000;
  for (;;) {
    const now = { compiler: compilerMicros(pid), all: cpuMicros(pid) };
    samples.push(now);
    const waited = performance.now() - began;
    if (waited >= maxMs) return waited;
    const then = samples.length > back ? samples.shift()! : undefined;
    if (then && now.compiler - then.compiler < QUIET_SHARE * (now.all - then.all)) return waited;
    await Bun.sleep(1000);
  }
}

/** The slowest the fake and client are expected to deliver a drain (a third of the 26–40 k chunks/s seen past N 1 000). */
const DRAIN_FLOOR_PER_MS = 10;

/** A drain's bound: two calls' length, and every open call's remaining chunks (non-stream: the call) at the floor rate. */
const drainBound = (n: number, callMs: number, chunks: number) =>
  Math.round(2 * callMs + (n * (chunks + 2)) / DRAIN_FLOOR_PER_MS);

/**
 * Runs the client against a target; reads the target's CPU and RSS, and the fake's CPU, between its "measuring" and
 * "measured". A measured run drains (waits for its calls to end); the warm-up's calls are cut at its end.
 */
async function drive(
  target: Target,
  fakePid: number,
  n: number,
  shape: Shape,
  measure: boolean,
  model?: string,
): Promise<Run> {
  const script = join(import.meta.dir, "stream-client.ts");
  const args = ["--url", target.url, "--n", String(n), "--ramp-ms", String(shape.rampMs)];
  args.push(
    "--warm-ms",
    String(shape.warmMs),
    "--measure-ms",
    String(shape.measureMs),
    "--wait-ms",
    String(shape.waitMs),
    "--drain-ms",
    String(measure ? drainBound(n, shape.callMs, shape.chunks) : 0),
  );
  if (shape.chunks) args.push("--chunks", String(shape.chunks));
  if (target.key) args.push("--key", target.key);
  for (const [name, value] of Object.entries(target.headers ?? {})) args.push("--header", `${name}: ${value}`);
  if (shape.stream) args.push("--stream");
  if (shape.promptKb) args.push("--prompt-kb", String(shape.promptKb));
  if (model) args.push("--model", model);
  const settle = measure && shape.settleMaxMs > 0;
  if (settle) args.push("--open-when-told");
  const idleRss = rssBytes(target.pid);
  const client = spawn({
    cmd: pinned(CLIENT_CPU, ["bun", script, ...args]),
    stdin: settle ? "pipe" : "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  let settleMs = 0;
  let settling: Promise<void> | undefined;
  let cpuBefore = 0;
  let cpuAfter = 0;
  let mainBefore = { user: 0, sys: 0 };
  let mainAfter = mainBefore;
  let fakeCpu = 0;
  const gcLog = gcLogs.get(target);
  let gcBefore: GcTotals | undefined;
  let gcAfter: GcTotals | undefined;
  let rss: { stop(): number[] } | undefined;
  let samples: number[] = [];
  let last = "";
  const decoder = new TextDecoder();
  let pending = "";
  for await (const bytes of client.stdout) {
    pending += decoder.decode(bytes, { stream: true });
    let nl = pending.indexOf("\n");
    for (; nl >= 0; nl = pending.indexOf("\n")) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line === "warmed" && settle) {
        settling = untilCompilerQuiet(target.pid, shape.settleMaxMs)
          // A target gone meanwhile: the window opens anyway, and its calls show what happened.
          .catch(() => Number.NaN)
          .then((waited) => {
            settleMs = waited;
            const stdin = client.stdin as Bun.FileSink;
            stdin.write("open\n");
            stdin.flush();
          });
      } else if (line === "measuring") {
        cpuBefore = cpuMicros(target.pid);
        mainBefore = mainThreadTimes(target.pid);
        fakeCpu = cpuMicros(fakePid);
        gcBefore = gcLog?.now();
        if (measure) rss = sampleRss(target.pid, 500);
      } else if (line === "measured") {
        cpuAfter = cpuMicros(target.pid);
        mainAfter = mainThreadTimes(target.pid);
        fakeCpu = cpuMicros(fakePid) - fakeCpu;
        gcAfter = gcLog?.now();
        samples = rss?.stop() ?? [];
      } else if (line) last = line;
    }
  }
  await client.exited;
  await settling;
  const figures = JSON.parse(last || pending) as ClientFigures;
  const units = shape.stream ? figures.chunksInWindow : figures.completedInWindow;
  const plateauRss = samples.length ? median(samples) : NaN;
  return {
    ...figures,
    cpuPerUnitMicros: (cpuAfter - cpuBefore) / units,
    mainUserPerUnitMicros: (mainAfter.user - mainBefore.user) / units,
    mainSysPerUnitMicros: (mainAfter.sys - mainBefore.sys) / units,
    // The process's figure less the main thread's: threads that ended in the window count too.
    othersPerUnitMicros:
      (cpuAfter - cpuBefore - (mainAfter.user - mainBefore.user) - (mainAfter.sys - mainBefore.sys)) / units,
    loadCpuPerUnitMicros: (fakeCpu + figures.cpuInWindow) / units,
    unitsPerSecond: units / (shape.measureMs / 1000),
    idleRss,
    plateauRss,
    rssPerOpen: (plateauRss - idleRss) / n,
    settleMs,
    gc: gcBefore && gcAfter && inWindow(gcBefore, gcAfter, shape.measureMs / 1000),
  };
}

const KiB = 1024;
/** The run with the median of a figure, per figure: each column its own median over the rounds. */
function medians(runs: Run[]): Run {
  const out = { ...runs[0]! };
  for (const key of Object.keys(out) as (keyof Run)[]) {
    if (typeof out[key] === "number") (out as any)[key] = median(runs.map((r) => r[key] as number));
  }
  for (const key of ["started", "completed", "failed", "stalled"] as const)
    out[key] = runs.reduce((n, r) => n + r[key], 0);
  return out;
}

export async function streamsBench(options: StreamsOptions): Promise<void> {
  const began = performance.now();
  const compiled = join(ROOT, "dist/tollgate");
  const builds: { name: string; command: string[] }[] = options.binaries.length
    ? options.binaries.map((binary) => ({ name: binary, command: [binary, "serve"] }))
    : !options.source && existsSync(compiled)
      ? [{ name: "tollgate", command: [compiled, "serve"] }]
      : [{ name: "tollgate (source)", command: ["bun", join(ROOT, "src/main.ts"), "serve"] }];
  const portkey = options.portkey ? portkeyScript() : undefined;
  const portkeyNote = portkey
    ? "Portkey (npm @portkey-ai/gateway, on Bun)"
    : options.portkey
      ? "Portkey is not installed (bun install), so not measured"
      : "Portkey not measured (--no-portkey)";
  console.log(
    `\nOpen streams (issue #25): server on CPU ${SERVER_CPU}, fake and client on CPU ${CLIENT_CPU}; a fresh server per N and round; ` +
      `fd limit ${FD_LIMIT} (prlimit); Tollgate: ${builds.map((b) => b.name).join(", ")}; ${portkeyNote}`,
  );
  console.log(`  load average at start: ${load()}`);
  const streamCallMs = options.firstMs + options.chunks * options.intervalMs;
  const shapes: { name: string; shape: Shape; fakeArgs: string[]; unit: string }[] = [
    {
      name: `streams: first token after ${options.firstMs} ms, then ${options.chunks} chunks ${options.intervalMs} ms apart`,
      unit: "chunk",
      fakeArgs: [
        "--first-ms",
        String(options.firstMs),
        "--chunks",
        String(options.chunks),
        "--interval-ms",
        String(options.intervalMs),
      ],
      shape: {
        stream: true,
        rampMs: options.rampMs,
        warmMs: options.firstMs + 1000 + options.settleCalls * streamCallMs,
        measureMs: options.measureMs,
        waitMs: options.firstMs,
        callMs: streamCallMs,
        promptKb: options.promptKb,
        chunks: options.chunks,
        settleMaxMs: options.settleMaxMs,
      },
    },
  ];
  if (options.plain)
    shapes.push({
      name: `non-stream calls answered after ${NON_STREAM_LATENCY_MS / 1000} s`,
      unit: "call",
      fakeArgs: ["--latency-ms", String(NON_STREAM_LATENCY_MS)],
      shape: {
        stream: false,
        rampMs: NON_STREAM_LATENCY_MS,
        warmMs: 500,
        measureMs: Math.max(options.measureMs, NON_STREAM_LATENCY_MS),
        waitMs: NON_STREAM_LATENCY_MS,
        callMs: NON_STREAM_LATENCY_MS,
        promptKb: options.promptKb,
        chunks: 0,
        settleMaxMs: options.settleMaxMs,
      },
    });

  for (const { name, shape, fakeArgs, unit } of shapes) {
    const fakePort = freePort();
    const fakeUrl = `http://127.0.0.1:${fakePort}`;
    const startFake = (port: number, args: string[]) =>
      startProcess(
        "drip upstream",
        pinned(CLIENT_CPU, ["bun", join(import.meta.dir, "drip-upstream.ts"), "--port", String(port), ...args]),
        `http://127.0.0.1:${port}`,
      );
    const fake = await startFake(fakePort, fakeArgs);
    const anthropicPort = freePort();
    const anthropicUrl = `http://127.0.0.1:${anthropicPort}`;
    const translated = options.translated && shape.stream;
    const anthropicFake = translated
      ? await startFake(anthropicPort, [...fakeArgs, "--dialect", "anthropic"])
      : undefined;
    /** Per N: the runs of each target, by name (the forwarder first). */
    const results = new Map<number, Map<string, Run[]>>();
    try {
      const startForwarder = async (): Promise<Target> => {
        const port = freePort();
        const url = `http://127.0.0.1:${port}`;
        const script = join(import.meta.dir, "forwarder.ts");
        const proc = await startProcess(
          "forwarder",
          pinned(SERVER_CPU, ["bun", script, "--port", String(port), "--upstream", fakeUrl]),
          url,
          // fetch holds at most 256 requests in flight by default and queues the rest: N open streams need N.
          { BUN_CONFIG_MAX_HTTP_REQUESTS: "65535" },
        );
        return { name: "forwarder", url, pid: proc.pid, key: "", stop: () => stop(proc) };
      };
      const startTollgate = async (command: string[]): Promise<Target> => {
        const gcLog = options.gc ? new GcLog() : undefined;
        const gateway = await startGateway({
          command: withFds(command),
          cpu: SERVER_CPU,
          env: { INITIAL_ROOT_PASSWORD: "bench-root-pass", ...(gcLog && GC_LOG_ENV) },
          stderrLine: gcLog && ((line) => gcLog.take(line)),
        });
        const key = await provision(gateway, fakeUrl, translated ? anthropicUrl : undefined);
        const target = { name: "Tollgate", url: gateway.url, pid: gateway.proc.pid, key, stop: () => gateway.stop() };
        if (gcLog) gcLogs.set(target, gcLog);
        return target;
      };
      const warm: Shape = { ...shape, rampMs: 200, warmMs: 0, measureMs: shape.callMs + 500 };
      for (const n of options.ladder) {
        /** Each target of the round: how it starts, and the fake and model its calls reach. */
        const starts: { key: string; start: () => Promise<Target>; fakePid: number; model?: string }[] = [
          { key: "forwarder", start: startForwarder, fakePid: fake.pid },
          ...builds.map((b) => ({ key: b.name, start: () => startTollgate(b.command), fakePid: fake.pid })),
        ];
        if (anthropicFake)
          for (const b of builds)
            starts.push({
              key: translatedKey(b.name),
              start: () => startTollgate(b.command),
              fakePid: anthropicFake.pid,
              model: CLAUDE_MODEL,
            });
        if (portkey)
          starts.push({
            key: PORTKEY,
            start: () => startPortkey(portkey, fakeUrl, (cmd) => pinned(SERVER_CPU, cmd)),
            fakePid: fake.pid,
          });
        const entry = new Map<string, Run[]>(starts.map(({ key }) => [key, []]));
        results.set(n, entry);
        for (let round = 0; round < options.rounds; round++) {
          for (const { key, start, fakePid, model } of starts) {
            const target = await start();
            try {
              await drive(target, fakePid, WARM_STREAMS, warm, false, model);
              await Bun.sleep(200);
              entry.get(key)!.push(await drive(target, fakePid, n, shape, true, model));
            } finally {
              await target.stop();
            }
          }
        }
        console.log(`  (${name}: N ${n} done, load average ${load()})`);
      }
    } finally {
      await stop(fake);
      if (anthropicFake) await stop(anthropicFake);
    }

    console.log(`\n  ${name}; ${options.rounds} round(s), medians; load average now ${load()}`);
    const perUnit = shape.stream ? "CPU µs/chunk" : "CPU µs/call";
    table(
      [
        "N open",
        "target",
        "started",
        "completed",
        "failed",
        "stalled",
        `${unit}s/s`,
        perUnit,
        "main user / sys, other threads",
        shape.stream ? "added gap p50 ms" : "added latency p50 ms",
        "p99 ms",
        ...(shape.stream ? ["added TTFB p50 ms", "p99 ms", "chunk latency p50 ms", "p99 ms"] : []),
        "RSS MB",
        "RSS/open KiB",
        `fake+client µs/${unit}`,
        "drain s",
        "settle s",
      ],
      [...results].flatMap(([n, entry]) =>
        [...entry].map(([key, runs]) => {
          const r = medians(runs);
          return [
            String(n),
            key,
            String(r.started),
            String(r.completed),
            String(r.failed),
            String(r.stalled),
            fmt(r.unitsPerSecond, 0),
            fmt(r.cpuPerUnitMicros, 1),
            [r.mainUserPerUnitMicros, r.mainSysPerUnitMicros, r.othersPerUnitMicros].map((v) => fmt(v, 1)).join(" / "),
            fmt(shape.stream ? r.gapP50 : r.firstP50, 2),
            fmt(shape.stream ? r.gapP99 : r.firstP99, 2),
            ...(shape.stream
              ? [fmt(r.firstP50, 2), fmt(r.firstP99, 2), fmt(r.latencyP50, 2), fmt(r.latencyP99, 2)]
              : []),
            fmt(r.plateauRss / (KiB * KiB), 0),
            fmt(r.rssPerOpen / KiB, 1),
            fmt(r.loadCpuPerUnitMicros, 1),
            fmt(r.drainMs / 1000, 1),
            fmt(r.settleMs / 1000, 0),
          ];
        }),
      ),
    );
    for (const [n, entry] of results) {
      const forwarder = entry.get("forwarder")!;
      const f = medians(forwarder);
      reportEnds("forwarder", forwarder);
      for (const { name: build } of builds) {
        const tollgate = entry.get(build)!;
        const ratio = (of: (r: Run) => number) => median(tollgate.map((t, i) => of(t) / of(forwarder[i]!)));
        const t = medians(tollgate);
        const memoryBound = (1.5 * f.rssPerOpen) / KiB + 4000 / KiB;
        let line =
          `  N ${n}${builds.length > 1 ? ` ${build}` : ""}: CPU per ${unit} ${fmt(
            ratio((r) => r.cpuPerUnitMicros),
            2,
          )}× the forwarder's [target <= 1.2×]; ` +
          `RSS per open call ${fmt(t.rssPerOpen / KiB, 1)} / ${fmt(f.rssPerOpen / KiB, 1)} KiB [target <= ${fmt(memoryBound, 1)} KiB]`;
        if (shape.stream)
          line += `; added gap p99 ${fmt(t.gapP99, 2)} / ${fmt(f.gapP99, 2)} ms [target <= forwarder + 2 ms where the forwarder's < 20 ms]`;
        line +=
          `; calls failed or stalled ${t.failed + t.stalled} of ${t.started} / ${f.failed + f.stalled} of ${f.started}` +
          ` [target: none where the forwarder's none]`;
        console.log(line);
        const collector = collectorLine(tollgate);
        if (collector) console.log(collector);
        reportEnds("Tollgate", tollgate);
        const translatedRuns = entry.get(translatedKey(build));
        if (translatedRuns) console.log(translatedLine(n, build, builds.length, translatedRuns, tollgate, forwarder));
      }
      const portkeyRuns = entry.get(PORTKEY);
      if (portkeyRuns) console.log(portkeyLine(n, shape.stream, portkeyRuns, forwarder));
    }
    for (const line of slopeLines(results, builds)) console.log(line);
    if (shape.stream) for (const line of gapTargetLines(results, builds)) console.log(line);
  }
  console.log(`  open streams section took ${fmt((performance.now() - began) / 1000, 0)} s`);
}

/**
 * What each further open call costs, between each two N of the ladder: the growth of the RSS over idle from one
 * plateau to the next, over the calls added. The figure per N also carries what grows once with any load (compiled
 * code, the heap's first blocks, caches), which weighs most at the smallest N.
 */
function slopeLines(results: Map<number, Map<string, Run[]>>, builds: { name: string }[]): string[] {
  const ladder = [...results.keys()];
  const grown = (n: number, key: string) => medians(results.get(n)!.get(key)!).rssPerOpen * n;
  const lines: string[] = [];
  for (let i = 1; i < ladder.length; i++) {
    const [a, b] = [ladder[i - 1]!, ladder[i]!];
    const slope = (key: string) => (grown(b, key) - grown(a, key)) / (b - a) / KiB;
    const f = slope("forwarder");
    const bound = 1.5 * f + 4000 / KiB;
    for (const { name } of builds)
      lines.push(
        `  RSS per further open call, N ${a} → ${b}${builds.length > 1 ? ` ${name}` : ""}: ${fmt(slope(name), 1)} / ` +
          `${fmt(f, 1)} KiB [target <= ${fmt(bound, 1)} KiB]`,
      );
  }
  return lines;
}

/** The forwarder's gap p99 under which an N is the gap target's candidate. */
const GAP_TARGET_FORWARDER_MS = 20;

/**
 * The gap target where the issue sets it: at the largest N of the ladder whose forwarder's added gap p99 (median of
 * the rounds) stays under 20 ms, each build's p99 against the forwarder's + 2 ms.
 */
function gapTargetLines(results: Map<number, Map<string, Run[]>>, builds: { name: string }[]): string[] {
  const gapOf = (n: number, key: string) => medians(results.get(n)!.get(key)!).gapP99;
  const candidates = [...results.keys()].filter((n) => gapOf(n, "forwarder") < GAP_TARGET_FORWARDER_MS);
  if (candidates.length === 0)
    return [`  gap target: no N of this ladder has the forwarder's added gap p99 under ${GAP_TARGET_FORWARDER_MS} ms`];
  const n = Math.max(...candidates);
  const bound = gapOf(n, "forwarder") + 2;
  return builds.map(({ name }) => {
    const gap = gapOf(n, name);
    return (
      `  gap target at N ${n} (the largest N with the forwarder's p99 under ${GAP_TARGET_FORWARDER_MS} ms)` +
      `${builds.length > 1 ? ` ${name}` : ""}: ${fmt(gap, 2)} ms [target <= ${fmt(bound, 2)} ms]: ` +
      (gap <= bound ? "met" : "not met")
    );
  });
}

/** What a build's collector did in each round's window (with --gc), else undefined. */
function collectorLine(runs: Run[]): string | undefined {
  const rounds = runs.flatMap((r) =>
    r.gc ? [`${describeWindow(r.gc)}, ${fmt(r.gc.allocatedBytes / r.chunksInWindow, 0)} B allocated a chunk`] : [],
  );
  if (rounds.length === 0) return undefined;
  return `    collector in the window (--gc), by round: ${rounds.join("; ")}`;
}

/** A target's first failed and first stalled call over its rounds, when there was one. */
function reportEnds(name: string, runs: Run[]) {
  const failure = runs.find((r) => r.firstFailure)?.firstFailure;
  if (failure) console.log(`    ! ${name}'s first failure: ${failure}`);
  const stall = runs.find((r) => r.firstStall)?.firstStall;
  if (stall) console.log(`    ! ${name}'s first call open at the drain's timeout: ${stall}`);
}

/** The key of a build's translated streams in a round's results. */
const translatedKey = (build: string) => `${build} → Anthropic channel`;

/** A build's translated streams beside its same-dialect streams and the forwarder's, ratios taken within each round. */
function translatedLine(n: number, build: string, builds: number, runs: Run[], same: Run[], forwarder: Run[]): string {
  const t = medians(runs);
  const against = (others: Run[]) => median(runs.map((r, i) => r.cpuPerUnitMicros / others[i]!.cpuPerUnitMicros));
  return (
    `  N ${n}${builds > 1 ? ` ${build}` : ""} translated (OpenAI client → Anthropic channel): CPU per chunk ` +
    `${fmt(against(same), 2)}× the same build's same-dialect streams [wave 1's translated target <= 1.3×], ` +
    `${fmt(against(forwarder), 2)}× the forwarder's; RSS per open call ${fmt(t.rssPerOpen / KiB, 1)} KiB; added gap p99 ` +
    `${fmt(t.gapP99, 2)} ms; calls failed or stalled ${t.failed + t.stalled} of ${t.started}`
  );
}

/** Portkey beside the forwarder: whether it kept up (its calls' ends and its rate) and what it cost. */
function portkeyLine(n: number, stream: boolean, runs: Run[], forwarder: Run[]): string {
  const p = medians(runs);
  const f = medians(forwarder);
  const cpu = median(runs.map((r, i) => r.cpuPerUnitMicros / forwarder[i]!.cpuPerUnitMicros));
  const failure = runs.find((r) => r.firstFailure)?.firstFailure ?? runs.find((r) => r.firstStall)?.firstStall;
  const rate = `${fmt(p.unitsPerSecond, 0)} ${stream ? "chunks" : "calls"}/s against the forwarder's ${fmt(f.unitsPerSecond, 0)}`;
  const ends = (r: Run) => `${r.completed} completed / ${r.failed} failed / ${r.stalled} stalled of ${r.started}`;
  const kept =
    p.failed + p.stalled > f.failed + f.stalled ||
    p.completed < 0.9 * f.completed ||
    p.unitsPerSecond < 0.9 * f.unitsPerSecond
      ? `did not keep up (${rate}; ${ends(p)} against ${ends(f)})`
      : `kept up (${rate}; ${ends(p)})`;
  return (
    `  N ${n} Portkey: ${kept}; CPU per ${stream ? "chunk" : "call"} ${fmt(cpu, 2)}× the forwarder's; RSS per open ` +
    `call ${fmt(p.rssPerOpen / KiB, 1)} KiB; ${stream ? `added gap p99 ${fmt(p.gapP99, 2)}` : `added latency p99 ${fmt(p.firstP99, 2)}`} ms` +
    (failure ? `; first failure: ${failure}` : "")
  );
}

const list = (s: string) => s.split(",").map(Number);

/** Options from the command line (shared by `bun run bench` and this script alone). */
export function streamsOptions(argv: string[]): StreamsOptions {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      full: { type: "boolean" },
      n: { type: "string" },
      rounds: { type: "string" },
      "first-ms": { type: "string" },
      "ramp-ms": { type: "string" },
      chunks: { type: "string" },
      "interval-ms": { type: "string" },
      "measure-s": { type: "string" },
      "settle-calls": { type: "string" },
      "settle-max-s": { type: "string" },
      "no-plain": { type: "boolean" },
      "no-portkey": { type: "boolean" },
      "prompt-kb": { type: "string" },
      source: { type: "boolean" },
      binary: { type: "string", multiple: true },
      translated: { type: "boolean" },
      gc: { type: "boolean" },
    },
  });
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const firstMs = Number(str(values["first-ms"]) ?? 2000);
  return {
    ladder: list(str(values.n) ?? (values.full ? "500,2000,5000,9000" : "500,2000")),
    rounds: Number(str(values.rounds) ?? (values.full ? 3 : 1)),
    firstMs,
    rampMs: Number(str(values["ramp-ms"]) ?? firstMs),
    chunks: Number(str(values.chunks) ?? 100),
    intervalMs: Number(str(values["interval-ms"]) ?? 20),
    measureMs: Number(str(values["measure-s"]) ?? 8) * 1000,
    settleCalls: Number(str(values["settle-calls"]) ?? 2),
    settleMaxMs: Number(str(values["settle-max-s"]) ?? 120) * 1000,
    plain: !values["no-plain"],
    promptKb: Number(str(values["prompt-kb"]) ?? 0),
    source: Boolean(values.source),
    binaries: ((values.binary ?? []) as unknown[]).filter((b): b is string => typeof b === "string"),
    portkey: !values["no-portkey"],
    translated: Boolean(values.translated || values.full),
    gc: Boolean(values.gc),
  };
}

if (import.meta.main) await streamsBench(streamsOptions(process.argv.slice(2)));
