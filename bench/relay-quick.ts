/**
 * The relay bench's saturation figures alone (forwarder and Tollgate, non-stream and stream), for quick
 * A/B runs while tuning the hot path: a few minutes instead of the whole bench. --translated adds, for Tollgate,
 * the translated streams (Anthropic → OpenAI channel, Gemini → Anthropic channel) and their CPU per request
 * over the same round's OpenAI chat stream.
 *
 *   bun bench/relay-quick.ts [--seconds 8] [--rounds 1] [--source] [--translated] [--threads] [--gc]
 *                            [--binary dist/tollgate ...]
 *
 * --threads prints, under each target's line, its CPU per request by thread (the main thread, the JIT's, the
 * collector's, SQLite's checkpointer...), non-stream / stream.
 * --gc has Tollgate's engine log its collections (bench/gc-log.ts) and prints, for each call, the memory it
 * allocated and the collections' pauses per call: allocation is a count, steady from run to run where CPU is not.
 * Several --binary targets are measured in turn within each round, for an A/B comparison on an equal footing.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { provision, saturate, startScript, type Saturation, type Target } from "./relay";
import { ROOT, startGateway } from "./support";
import { CHAT, CHAT_STREAM, TRANSLATED_STREAMS, type BenchCall } from "./relay-calls";
import { describePerCall, GC_LOG_ENV, GcLog, perCall } from "./gc-log";

const { values } = parseArgs({
  options: {
    seconds: { type: "string" },
    rounds: { type: "string" },
    source: { type: "boolean" },
    binary: { type: "string", multiple: true },
    translated: { type: "boolean" },
    threads: { type: "boolean" },
    gc: { type: "boolean" },
  },
});
const seconds = Number(values.seconds ?? 8);
const rounds = Number(values.rounds ?? 1);

const fake = await startScript("fake upstream", "fake-upstream-server.ts", [], 1);
const fakeAnthropic = await startScript(
  "fake Anthropic upstream",
  "fake-upstream-server.ts",
  ["--dialect", "anthropic"],
  1,
);
const forwarder = await startScript("forwarder", "forwarder.ts", ["--upstream", fake.url], 0);
const targets: Target[] = [
  {
    name: "forwarder",
    url: forwarder.url,
    pid: forwarder.proc.pid,
    key: "",
    stop: async () => void forwarder.proc.kill(),
  },
];
/** Each Tollgate target's collector log, with --gc. */
const gcLogs = new Map<Target, GcLog>();
async function tollgate(name: string, command?: string[]) {
  const gcLog = values.gc ? new GcLog() : undefined;
  const gateway = await startGateway({
    command,
    cpu: 0,
    env: { INITIAL_ROOT_PASSWORD: "bench-root-pass", ...(gcLog && GC_LOG_ENV) },
    stderrLine: gcLog && ((line) => gcLog.take(line)),
  });
  const key = await provision(gateway, fake.url, fakeAnthropic.url);
  targets.push({ name, url: gateway.url, pid: gateway.proc.pid, key, stop: gateway.stop });
  if (gcLog) gcLogs.set(targets.at(-1)!, gcLog);
}
/** A saturation run, and what the target's collector did per call through it (with --gc, for Tollgate). */
async function measured(target: Target, call: BenchCall): Promise<{ run: Saturation; gc: string }> {
  const gcLog = gcLogs.get(target);
  const before = gcLog?.now();
  const run = await saturate(target, call, seconds);
  // The collector's last lines of the run reach the pipe a little after wrk ends.
  if (gcLog) await Bun.sleep(200);
  const gc = gcLog ? `  GC: ${describePerCall(perCall(before!, gcLog.now(), run.requests))}` : "";
  return { run, gc };
}
/** "name a / b µs" per thread with at least 0.1 µs a request in either run, the busiest first. */
function byThread(plain: Saturation, stream: Saturation): string {
  const names = new Set([...plain.threadMicrosPerRequest.keys(), ...stream.threadMicrosPerRequest.keys()]);
  const of = (run: Saturation, name: string) => run.threadMicrosPerRequest.get(name) ?? 0;
  return [...names]
    .filter((name) => Math.max(of(plain, name), of(stream, name)) >= 0.1)
    .sort((a, b) => of(plain, b) - of(plain, a))
    .map((name) => `${name} ${of(plain, name).toFixed(1)} / ${of(stream, name).toFixed(1)}`)
    .join(", ");
}
try {
  if (values.source) await tollgate("Tollgate (source)");
  for (const binary of values.binary ?? [join(ROOT, "dist/tollgate")]) await tollgate(binary, [binary, "serve"]);
  const translatedFor = (target: Target) => (values.translated && target !== targets[0] ? TRANSLATED_STREAMS : []);
  for (const target of targets) {
    await saturate(target, CHAT, 2);
    await saturate(target, CHAT_STREAM, 1);
    for (const call of translatedFor(target)) await saturate(target, call, 1);
  }
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const { run: plain, gc: plainGc } = await measured(target, CHAT);
      const { run: stream, gc: streamGc } = await measured(target, CHAT_STREAM);
      console.log(
        `${target.name.slice(-20).padEnd(20)} non-stream ${Math.round(plain.requestsPerSecond)} req/s ${plain.cpuMicrosPerRequest.toFixed(1)} µs/req` +
          `  stream ${Math.round(stream.requestsPerSecond)} req/s ${stream.cpuMicrosPerRequest.toFixed(1)} µs/req` +
          `  non-2xx ${plain.non2xx + stream.non2xx}`,
      );
      if (values.threads) console.log(`${"".padEnd(20)} ${byThread(plain, stream)}`);
      if (plainGc) console.log(`${"".padEnd(20)} non-stream${plainGc}\n${"".padEnd(20)} stream${streamGc}`);
      for (const call of translatedFor(target)) {
        const { run, gc } = await measured(target, call);
        console.log(
          `${"".padEnd(20)} ${call.name}: ${Math.round(run.requestsPerSecond)} req/s ${run.cpuMicrosPerRequest.toFixed(1)} µs/req` +
            ` = ${(run.cpuMicrosPerRequest / stream.cpuMicrosPerRequest).toFixed(2)}× the chat stream's  non-2xx ${run.non2xx}${gc}`,
        );
      }
    }
  }
} finally {
  for (const target of targets) await target.stop().catch(() => {});
  fake.proc.kill();
  fakeAnthropic.proc.kill();
}
