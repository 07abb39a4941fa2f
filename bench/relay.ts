/**
 * The relay benchmark (issue #3 §9). Starts the fake OpenAI upstream, the bare forwarder and Tollgate
 * (from source, and compiled when dist/tollgate exists) and drives, in one run:
 *
 *   - saturation: wrk -t1 -c64 -d5s POSTing a small chat body (non-stream, then stream), five rounds over the
 *     targets in turn, with the server's CPU µs per request from /proc and its peak RSS; ratios to the
 *     forwarder are taken round by round (the machine's slow spells weigh on both sides) and their median shown;
 *   - latency at a fixed rate (1000 req/s, open loop, measured from the due time), non-stream, three rounds over the
 *     targets in turn, each round's figures less the fake's in the same round, their median shown;
 *   - translated streams: the same saturation runs, Tollgate only, of an Anthropic Messages stream through the OpenAI
 *     channel and a Gemini stream through an Anthropic channel (a second fake, speaking Anthropic Messages), their
 *     CPU per request held against the OpenAI chat stream's in the same round;
 *   - stream first-byte time at 200 req/s;
 *   - Tollgate's RSS over a soak at a steady mixed rate (BENCH_SOAK_SECONDS, default 60).
 *
 * The server under test (forwarder or Tollgate) is pinned to CPU 0; the load generators and the fake to
 * CPU 1 — so "fake directly" shares CPU 1 with its client, as it does when it is the upstream. Prints
 * figures with their targets beside them and never fails on a missed target.
 *
 *   bun bench/relay.ts          (or as part of `bun run bench`; BENCH_SOAK_SECONDS shortens the soak)
 */
import { spawn, type Subprocess } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fixedRate, httpRequest, type FixedRateResult } from "./fixed-rate";
import { cpuMicros, cpuMicrosByThread, rssBytes, sampleRss } from "./proc";
import { SQLITE_CACHE_KIB } from "../src/db/connect";
import { freePort, median, ROOT, startGateway, untilAnswering, type Gateway } from "./support";
import {
  callHeaders,
  CHAT,
  CHAT_PATH,
  CHAT_STREAM,
  CLAUDE_MODEL,
  MODEL,
  TRANSLATED_STREAMS,
  type BenchCall,
} from "./relay-calls";

const SERVER_CPU = 0;
const CLIENT_CPU = 1;
const ROOT_PASSWORD = "bench-root-pass";
/** The compiled gateway (`bun run build`); BENCH_TOLLGATE_BINARY points elsewhere, e.g. at a build under /tmp. */
const COMPILED = process.env.BENCH_TOLLGATE_BINARY || join(ROOT, "dist/tollgate");

const SATURATION_SECONDS = 5;
const SATURATION_ROUNDS = 5;
const FIXED_RATE = 1000;
const FIXED_SECONDS = 6;
const FIXED_ROUNDS = 3;
const FIRST_BYTE_RATE = 200;
const FIRST_BYTE_SECONDS = 5;
const SOAK_RATE = 500;
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS || 60);
const SOAK_SAMPLE_SECONDS = 5;

export interface Target {
  name: string;
  url: string;
  pid: number;
  /** Bearer key ("" for targets without auth). */
  key: string;
  /** Request headers the target routes by, beyond the key (Portkey's provider and upstream). */
  headers?: Record<string, string>;
  stop(): Promise<void>;
}

/** Spawns a plain Bun script pinned to a CPU and waits until its port answers. */
export async function startScript(
  name: string,
  script: string,
  args: string[],
  cpu: number,
): Promise<{ url: string; proc: Subprocess }> {
  const port = freePort();
  const proc = spawn({
    cmd: ["taskset", "-c", String(cpu), "bun", join(import.meta.dir, script), "--port", String(port), ...args],
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  await untilAnswering(name, proc, url);
  return { url, proc };
}

async function stopProc(proc: Subprocess) {
  proc.kill("SIGTERM");
  await proc.exited;
}

/**
 * Signs in as root, prices the bench models, adds a channel to the fake (and one to the fake Anthropic upstream,
 * serving CLAUDE_MODEL, when given) and an unlimited token.
 */
export async function provision(gateway: Gateway, fakeUrl: string, anthropicUrl?: string): Promise<string> {
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(gateway.url + path, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { success: boolean; message?: string; data?: any };
    if (!json.success) throw new Error(`${method} ${path}: ${json.message}`);
    return { json, response };
  };
  const login = await call("POST", "/api/user/login", { username: "root", password: ROOT_PASSWORD });
  const auth = {
    cookie: login.response.headers.get("set-cookie")!.split(";")[0]!,
    "New-Api-User": String(login.json.data.id),
  };
  await call(
    "PUT",
    "/api/option/",
    { key: "ModelRatio", value: JSON.stringify({ [MODEL]: 1, [CLAUDE_MODEL]: 1 }) },
    auth,
  );
  const channel = (type: number, name: string, baseUrl: string, models: string) =>
    call(
      "POST",
      "/api/channel/",
      { type, name, key: "sk-bench-upstream", base_url: baseUrl, models, group: "default" },
      auth,
    );
  await channel(1, "fake", fakeUrl, MODEL);
  if (anthropicUrl) await channel(14, "fake anthropic", anthropicUrl, CLAUDE_MODEL);
  const token = await call("POST", "/api/token/", { name: "bench", unlimited_quota: true }, auth);
  return token.json.data.keys[0] as string;
}

async function startTollgate(name: string, fakeUrl: string, anthropicUrl: string, command?: string[]): Promise<Target> {
  const gateway = await startGateway({ command, cpu: SERVER_CPU, env: { INITIAL_ROOT_PASSWORD: ROOT_PASSWORD } });
  const key = await provision(gateway, fakeUrl, anthropicUrl);
  return { name, url: gateway.url, pid: gateway.proc.pid, key, stop: () => gateway.stop() };
}

/** One request of each kind, so a misconfigured target shows its error instead of a table of non-2xx. */
export async function probe(target: Target, calls: BenchCall[]) {
  for (const call of calls) {
    const response = await fetch(target.url + call.path, {
      method: "POST",
      headers: callHeaders(call, target.key),
      body: call.body,
    });
    const text = await response.text();
    if (response.status !== 200)
      console.log(`  ! ${target.name} ${call.name} probe: ${response.status} ${text.slice(0, 300)}`);
  }
}

export interface Saturation {
  requestsPerSecond: number;
  requests: number;
  non2xx: number;
  socketErrors: string;
  cpuMicrosPerRequest: number;
  /** CPU per request by thread name (threads of one name summed), µs. */
  threadMicrosPerRequest: Map<string, number>;
  p50Ms: number;
  p99Ms: number;
  rssMax: number;
}

/** wrk POSTing the call's body through bench/wrk-post.lua, on CPU 1; CPU and RSS of the target's process. */
export async function saturate(target: Target, benchCall: BenchCall, seconds: number): Promise<Saturation> {
  const cmd = [
    "taskset",
    "-c",
    String(CLIENT_CPU),
    "wrk",
    "--latency",
    "-t1",
    "-c64",
    `-d${seconds}s`,
    "-s",
    join(import.meta.dir, "wrk-post.lua"),
    target.url + benchCall.path,
  ];
  const rss = sampleRss(target.pid, 250);
  const cpuBefore = cpuMicros(target.pid);
  const threadsBefore = cpuMicrosByThread(target.pid);
  const proc = spawn({
    cmd,
    env: { ...process.env, WRK_BODY: benchCall.body, WRK_KEY: target.key, WRK_KEY_HEADER: benchCall.keyHeader ?? "" },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const cpu = cpuMicros(target.pid) - cpuBefore;
  const rssSamples = rss.stop();
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const threadMicrosPerRequest = new Map<string, number>();
  for (const [name, micros] of cpuMicrosByThread(target.pid)) {
    threadMicrosPerRequest.set(name, (micros - (threadsBefore.get(name) ?? 0)) / requests);
  }
  const latency = (pct: string) => {
    const m = new RegExp(`${pct}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!m) return NaN;
    const value = Number(m[1]);
    return m[2] === "us" ? value / 1000 : m[2] === "s" ? value * 1000 : value;
  };
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    requests,
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: /Socket errors:[^\n]*/.exec(out)?.[0] ?? "",
    cpuMicrosPerRequest: cpu / requests,
    threadMicrosPerRequest,
    p50Ms: latency("50"),
    p99Ms: latency("99"),
    rssMax: Math.max(...rssSamples),
  };
}

/** The run with the median throughput (its CPU, latency and errors with it), RSS the highest of all runs. */
function medianRun(runs: Saturation[]): Saturation {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return { ...sorted[Math.floor(sorted.length / 2)]!, rssMax: Math.max(...runs.map((r) => r.rssMax)) };
}

function requestsFor(target: Target, calls: BenchCall[]): Uint8Array[] {
  return calls.map((call) => httpRequest(target.url, "POST", call.path, call.body, callHeaders(call, target.key)));
}

const ALLOWED_CPUS = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? "0-1";

/** The fixed-rate client runs in this process: pin it (every thread) to CPU 1 for the duration, then restore. */
function pinSelf(cpu: number | undefined) {
  const list = cpu === undefined ? ALLOWED_CPUS : String(cpu);
  Bun.spawnSync(["taskset", "-a", "-p", "-c", list, String(process.pid)], { stdout: "ignore", stderr: "ignore" });
}

const MB = 1024 * 1024;
export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const signed = (n: number, digits = 2) => (Number.isFinite(n) ? (n >= 0 ? "+" : "") + n.toFixed(digits) : "n/a");
const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : "n/a");
export const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

export function table(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")}`;
  console.log(line(header));
  console.log(`  ${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of rows) console.log(line(row));
}

export async function relayBench(): Promise<void> {
  const began = performance.now();
  console.log(
    `\nRelay benchmark (issue #3 §9): server under test on CPU ${SERVER_CPU}; wrk, the fixed-rate client and the fake upstream on CPU ${CLIENT_CPU}`,
  );
  console.log(
    `  load average at start: ${load()} (2 cores: other work on the machine skews every figure below; it should be near 0 here)`,
  );

  const fake = await startScript("fake upstream", "fake-upstream-server.ts", [], CLIENT_CPU);
  const fakeAnthropic = await startScript(
    "fake Anthropic upstream",
    "fake-upstream-server.ts",
    ["--dialect", "anthropic"],
    CLIENT_CPU,
  );
  const forwarderProc = await startScript("forwarder", "forwarder.ts", ["--upstream", fake.url], SERVER_CPU);
  const targets: Target[] = [
    { name: "fake directly (ceiling)", url: fake.url, pid: fake.proc.pid, key: "", stop: () => stopProc(fake.proc) },
    {
      name: "bare forwarder (floor)",
      url: forwarderProc.url,
      pid: forwarderProc.proc.pid,
      key: "",
      stop: () => stopProc(forwarderProc.proc),
    },
  ];
  const [direct, forwarder] = targets as [Target, Target];
  try {
    const source = await startTollgate("Tollgate, from source", fake.url, fakeAnthropic.url);
    targets.push(source);
    let compiled: Target | undefined;
    if (existsSync(COMPILED)) {
      compiled = await startTollgate("Tollgate, compiled", fake.url, fakeAnthropic.url, [COMPILED, "serve"]);
      targets.push(compiled);
    }
    const tollgates = compiled ? [source, compiled] : [source];

    /** The calls each target takes: translated streams only through Tollgate. */
    const callsOf = (t: Target) => (tollgates.includes(t) ? TRANSLATED_STREAMS : []);
    for (const target of targets) await probe(target, [CHAT, CHAT_STREAM, ...callsOf(target)]);

    // ---- Saturation ----
    for (const target of targets) {
      await saturate(target, CHAT, 2); // warm-up (JIT, connection pools)
      await saturate(target, CHAT_STREAM, 1);
      for (const call of callsOf(target)) await saturate(target, call, 1);
    }
    // Rounds alternate the targets, so a slow spell of the machine weighs on all of them alike; medians are shown.
    const runs = new Map<Target, { plain: Saturation[]; stream: Saturation[]; translated: Saturation[][] }>(
      targets.map((t) => [t, { plain: [], stream: [], translated: callsOf(t).map(() => []) }]),
    );
    for (let round = 0; round < SATURATION_ROUNDS; round++) {
      for (const target of targets) {
        const run = runs.get(target)!;
        run.plain.push(await saturate(target, CHAT, SATURATION_SECONDS));
        run.stream.push(await saturate(target, CHAT_STREAM, SATURATION_SECONDS));
        for (const [i, call] of callsOf(target).entries())
          run.translated[i]!.push(await saturate(target, call, SATURATION_SECONDS));
      }
    }
    const sat = new Map([...runs].map(([t, r]) => [t, { plain: medianRun(r.plain), stream: medianRun(r.stream) }]));
    console.log(
      `\n  Saturation: wrk -t1 -c64 -d${SATURATION_SECONDS}s, POST ${CHAT_PATH} {model, messages:[{user: "hi"}]}, ${SATURATION_ROUNDS} rounds over the targets in turn, ` +
        `the median round of each; CPU of the server process from /proc (load average now ${load()}, the bench's own included)`,
    );
    table(
      ["target", "non-stream req/s", "CPU µs/req", "non-2xx", "stream req/s", "CPU µs/req", "non-2xx", "max RSS MB"],
      targets.map((t) => {
        const { plain, stream } = sat.get(t)!;
        return [
          t.name,
          fmt(plain.requestsPerSecond, 0),
          fmt(plain.cpuMicrosPerRequest, 0),
          String(plain.non2xx),
          fmt(stream.requestsPerSecond, 0),
          fmt(stream.cpuMicrosPerRequest, 0),
          String(stream.non2xx),
          fmt(Math.max(plain.rssMax, stream.rssMax) / MB),
        ];
      }),
    );
    for (const t of targets) {
      const { plain, stream } = sat.get(t)!;
      for (const e of [plain.socketErrors, stream.socketErrors]) if (e) console.log(`  ! ${t.name}: wrk ${e}`);
    }
    // Each round's Tollgate figure against the same round's forwarder figure; the median of the rounds' ratios.
    const floor = runs.get(forwarder)!;
    const ratios = (t: Target, kind: "plain" | "stream", of: (r: Saturation) => number) => {
      const each = runs.get(t)![kind].map((r, i) => of(r) / of(floor[kind][i]!));
      return { median: median(each), each };
    };
    const list = (values: number[], show: (n: number) => string) => values.map(show).join(", ");
    /** Each round's CPU per request of a translated stream over the same-dialect stream's in that round. */
    const translatedRatios = (t: Target, i: number) => {
      const { stream, translated } = runs.get(t)!;
      return translated[i]!.map((r, round) => r.cpuMicrosPerRequest / stream[round]!.cpuMicrosPerRequest);
    };
    for (const t of tollgates) {
      const rate = (r: Saturation) => r.requestsPerSecond;
      const cpu = (r: Saturation) => r.cpuMicrosPerRequest;
      const [plainRate, streamRate] = [ratios(t, "plain", rate), ratios(t, "stream", rate)];
      const [plainCpu, streamCpu] = [ratios(t, "plain", cpu), ratios(t, "stream", cpu)];
      const times = (n: number) => `${fmt(n, 2)}×`;
      console.log(
        `  ${t.name}: throughput ${pct(plainRate.median)} of forwarder non-stream (rounds ${list(plainRate.each, pct)}), ` +
          `${pct(streamRate.median)} stream (${list(streamRate.each, pct)})  [target >= 60%]`,
      );
      console.log(
        `  ${t.name}: CPU per request ${times(plainCpu.median)} forwarder's non-stream (rounds ${list(plainCpu.each, times)}), ` +
          `${times(streamCpu.median)} stream (${list(streamCpu.each, times)})  [target <= 2×]`,
      );
    }

    console.log(
      `\n  Translated streams: the same saturation rounds, Tollgate only; each round's CPU per request against the ` +
        `${CHAT_STREAM.name}'s (same-dialect, OpenAI channel) in that round, the median of the rounds`,
    );
    table(
      ["target", "call", "req/s", "CPU µs/req", "non-2xx", "CPU × same-dialect"],
      tollgates.flatMap((t) =>
        TRANSLATED_STREAMS.map((call, i) => {
          const r = medianRun(runs.get(t)!.translated[i]!);
          const each = translatedRatios(t, i);
          return [
            t.name,
            call.name,
            fmt(r.requestsPerSecond, 0),
            fmt(r.cpuMicrosPerRequest, 0),
            String(r.non2xx),
            fmt(median(each), 2),
          ];
        }),
      ),
    );
    for (const t of tollgates)
      for (const [i, call] of TRANSLATED_STREAMS.entries()) {
        const each = translatedRatios(t, i);
        const times = (n: number) => `${fmt(n, 2)}×`;
        console.log(
          `  ${t.name}: ${call.name} costs ${times(median(each))} the CPU per request of the ${CHAT_STREAM.name} ` +
            `(rounds ${list(each, times)})  [target <= 1.3×]`,
        );
        for (const r of runs.get(t)!.translated[i]!)
          if (r.socketErrors) console.log(`  ! ${t.name} ${call.name}: wrk ${r.socketErrors}`);
      }

    // ---- Latency at a fixed rate, and stream first byte ----
    pinSelf(CLIENT_CPU);
    const fixed = new Map<Target, FixedRateResult[]>();
    const firstByte = new Map<Target, FixedRateResult>();
    const latencyTargets = [direct, forwarder, source];
    try {
      for (const t of latencyTargets) {
        await fixedRate({
          origin: t.url,
          requests: requestsFor(t, [CHAT]),
          rate: FIXED_RATE,
          seconds: 1,
          connections: 32,
        }); // warm-up
        fixed.set(t, []);
      }
      // Rounds alternate the targets, so a stall of the machine (the fake alone shows them too) spoils one round, not the figure.
      for (let round = 0; round < FIXED_ROUNDS; round++) {
        for (const t of latencyTargets) {
          fixed.get(t)!.push(
            await fixedRate({
              origin: t.url,
              requests: requestsFor(t, [CHAT]),
              rate: FIXED_RATE,
              seconds: FIXED_SECONDS,
              connections: 32,
            }),
          );
        }
      }
      for (const t of latencyTargets) {
        const requests = requestsFor(t, [CHAT_STREAM]);
        firstByte.set(
          t,
          await fixedRate({
            origin: t.url,
            requests,
            rate: FIRST_BYTE_RATE,
            seconds: FIRST_BYTE_SECONDS,
            connections: 16,
          }),
        );
      }
    } finally {
      pinSelf(undefined);
    }
    const base = fixed.get(direct)!;
    /** Each round's figure less the fake's in the same round: their median, and the rounds. */
    const added = (t: Target, of: (r: FixedRateResult) => number) => {
      const each = fixed.get(t)!.map((r, i) => of(r) - of(base[i]!));
      return { median: median(each), each };
    };
    const p50 = (r: FixedRateResult) => r.latency.p50;
    const p99 = (r: FixedRateResult) => r.latency.p99;
    console.log(
      `\n  Non-stream latency at ${FIXED_RATE} req/s, ${FIXED_ROUNDS} rounds of ${FIXED_SECONDS} s over the targets in turn (open loop, 32 keep-alive sockets, ` +
        `measured from the due send time; medians of the rounds; load average now ${load()}, the bench's own included)`,
    );
    table(
      ["target", "achieved req/s", "p50 ms", "p99 ms", "max ms", "added p50", "added p99", "non-2xx", "errors"],
      latencyTargets.map((t) => {
        const rounds = fixed.get(t)!;
        const total = (of: (r: FixedRateResult) => number) => String(rounds.reduce((n, r) => n + of(r), 0));
        return [
          t.name,
          fmt(median(rounds.map((r) => r.achievedRate)), 0),
          fmt(median(rounds.map(p50)), 3),
          fmt(median(rounds.map(p99)), 3),
          fmt(Math.max(...rounds.map((r) => r.latency.max)), 1),
          t !== direct ? signed(added(t, p50).median, 3) : "-",
          t !== direct ? signed(added(t, p99).median, 3) : "-",
          total((r) => r.non2xx),
          total((r) => r.errors),
        ];
      }),
    );
    const ms = (values: number[]) => values.map((n) => fmt(n, 3)).join(", ");
    const [s50, s99, f50, f99] = [added(source, p50), added(source, p99), added(forwarder, p50), added(forwarder, p99)];
    console.log(
      `  ${source.name}: added p50 ${fmt(s50.median, 3)} ms (rounds ${ms(s50.each)}) [target <= 0.5 ms], ` +
        `added p99 ${fmt(s99.median, 3)} ms (rounds ${ms(s99.each)}) [target <= 3 ms]  ` +
        `(forwarder adds ${fmt(f50.median, 3)} / ${fmt(f99.median, 3)} ms)`,
    );
    const lag = [...fixed.values()].flat().map((r) => r.timerLag);
    console.log(
      `  (the client's own timer lateness, included above: p50 ${fmt(Math.max(...lag.map((l) => l.p50)), 3)} ms, ` +
        `p99 ${fmt(Math.max(...lag.map((l) => l.p99)), 3)} ms, worst of the rounds; the fake's own p99 by round: ${ms(base.map(p99))} ms)`,
    );

    const fbBase = firstByte.get(direct)!;
    console.log(
      `\n  Stream chat at ${FIRST_BYTE_RATE} req/s for ${FIRST_BYTE_SECONDS} s: first body byte, and the whole stream (load average now ${load()}, the bench's own included)`,
    );
    table(
      ["target", "first byte p50 ms", "p99 ms", "added p50", "whole p50 ms", "whole p99 ms", "non-2xx", "errors"],
      latencyTargets.map((t) => {
        const r = firstByte.get(t)!;
        return [
          t.name,
          fmt(r.firstByte.p50, 3),
          fmt(r.firstByte.p99, 3),
          t === direct ? "-" : signed(r.firstByte.p50 - fbBase.firstByte.p50, 3),
          fmt(r.latency.p50, 3),
          fmt(r.latency.p99, 3),
          String(r.non2xx),
          String(r.errors),
        ];
      }),
    );
    console.log(
      `  ${source.name}: stream first byte added ${fmt(firstByte.get(source)!.firstByte.p50 - fbBase.firstByte.p50, 3)} ms (p50) [target <= 1 ms]` +
        "  (the fake answers a repeated request with its whole memoized stream at once)",
    );
    for (const r of [...[...fixed.values()].flat(), ...firstByte.values()])
      if (r.firstError) console.log(`  ! first non-2xx: ${r.firstError}`);

    // ---- RSS soak, on a fresh process (the ones above carry what the saturation runs left behind) ----
    const soaked = await startTollgate(
      `${compiled ? "Tollgate, compiled" : "Tollgate, from source"}, fresh process`,
      fake.url,
      fakeAnthropic.url,
      compiled ? [COMPILED, "serve"] : undefined,
    );
    targets.push(soaked);
    console.log(
      `\n  ${soaked.name}: RSS soak, ${SOAK_RATE} req/s alternating non-stream and stream for ${SOAK_SECONDS} s, VmRSS every ${SOAK_SAMPLE_SECONDS} s`,
    );
    const series: { at: number; rss: number }[] = [];
    const soakStart = performance.now();
    const sample = () =>
      series.push({ at: Math.round((performance.now() - soakStart) / 1000), rss: rssBytes(soaked.pid) });
    sample();
    const sampler = setInterval(sample, SOAK_SAMPLE_SECONDS * 1000);
    pinSelf(CLIENT_CPU);
    let soak: FixedRateResult;
    try {
      soak = await fixedRate({
        origin: soaked.url,
        requests: requestsFor(soaked, [CHAT, CHAT_STREAM]),
        rate: SOAK_RATE,
        seconds: SOAK_SECONDS,
        connections: 32,
      });
    } finally {
      pinSelf(undefined);
      clearInterval(sampler);
    }
    if (series.at(-1)!.at < SOAK_SECONDS) sample();
    console.log(`  ${series.map((p) => `${p.at}s ${fmt(p.rss / MB)}`).join(", ")} (MB)`);
    const from = series.find((p) => p.at >= 10) ?? series[0]!;
    const half = series.find((p) => p.at >= SOAK_SECONDS / 2) ?? from;
    const last = series.at(-1)!;
    const soakMax = Math.max(...series.map((p) => p.rss));
    const growth = (since: { rss: number }) => `${signed(((last.rss - since.rss) / since.rss) * 100, 1)}%`;
    console.log(
      `  growth from ${from.at} s to ${last.at} s: ${growth(from)} (SQLite's page cache fills up to its ${SQLITE_CACHE_KIB / 1024} MB meanwhile), ` +
        `from ${half.at} s: ${growth(half)} [target flat: < ~10%]; ` +
        `max ${fmt(soakMax / MB)} MB [target <= 150 MB]; ` +
        `soak p50 ${fmt(soak.latency.p50, 3)} ms, p99 ${fmt(soak.latency.p99, 3)} ms, non-2xx ${soak.non2xx}, errors ${soak.errors}`,
    );
    for (const t of tollgates) {
      const { plain, stream } = sat.get(t)!;
      console.log(
        `  ${t.name}: max RSS under saturation ${fmt(Math.max(plain.rssMax, stream.rssMax) / MB)} MB  [target <= 150 MB]`,
      );
    }
    if (!compiled) console.log("  Tollgate, compiled: compiled binary not built (bun run build)");
  } finally {
    for (const t of [...targets].reverse()) await t.stop().catch(() => {});
    await stopProc(fakeAnthropic.proc).catch(() => {});
  }
  console.log(`  load average at end: ${load()}; relay section took ${fmt((performance.now() - began) / 1000, 0)} s`);
}

if (import.meta.main) await relayBench();
