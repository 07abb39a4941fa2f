/**
 * Where the relay's CPU goes: Tollgate from source under Bun's CPU profiler (markdown summary), driven at
 * saturation by wrk exactly as the relay bench does: non-stream, stream, or a translated stream
 * (--call anthropic: Anthropic Messages through the OpenAI channel; --call gemini: Gemini through an Anthropic channel).
 *
 *   bun bench/profile-relay.ts [--stream | --call anthropic|gemini] [--seconds 10] [--out /tmp/tollgate-profile]
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { mkdirSync, readdirSync } from "node:fs";
import { provision, saturate, startScript } from "./relay";
import { ROOT, startGateway } from "./support";
import { ANTHROPIC_STREAM, CHAT, CHAT_STREAM, GEMINI_STREAM } from "./relay-calls";

const { values } = parseArgs({
  options: {
    stream: { type: "boolean" },
    call: { type: "string" },
    seconds: { type: "string" },
    out: { type: "string" },
  },
});
const calls = { anthropic: ANTHROPIC_STREAM, gemini: GEMINI_STREAM };
const call = values.call ? calls[values.call as keyof typeof calls] : values.stream ? CHAT_STREAM : CHAT;
if (!call) throw new Error(`--call: one of ${Object.keys(calls).join(", ")}`);
const out = values.out ?? "/tmp/tollgate-profile";
mkdirSync(out, { recursive: true });

const fake = await startScript("fake upstream", "fake-upstream-server.ts", [], 1);
const fakeAnthropic = await startScript(
  "fake Anthropic upstream",
  "fake-upstream-server.ts",
  ["--dialect", "anthropic"],
  1,
);
const gateway = await startGateway({
  command: ["bun", "--cpu-prof-md", `--cpu-prof-dir=${out}`, join(ROOT, "src/main.ts"), "serve"],
  cpu: 0,
  env: { INITIAL_ROOT_PASSWORD: "bench-root-pass" },
});
try {
  const key = await provision(gateway, fake.url, fakeAnthropic.url);
  const target = { name: "Tollgate", url: gateway.url, pid: gateway.proc.pid, key, stop: gateway.stop };
  await saturate(target, call, 2);
  const result = await saturate(target, call, Number(values.seconds ?? 10));
  console.log(
    `${Math.round(result.requestsPerSecond)} req/s, ${result.cpuMicrosPerRequest.toFixed(1)} CPU µs/req, non-2xx ${result.non2xx}`,
  );
} finally {
  await gateway.stop();
  fake.proc.kill("SIGTERM");
  fakeAnthropic.proc.kill("SIGTERM");
}
console.log(
  `profile: ${out}/${readdirSync(out)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .at(-1)}`,
);
