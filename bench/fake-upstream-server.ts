/**
 * The fake OpenAI upstream in its own process, for the relay bench: answers repeated identical requests
 * from precomputed bytes (memoize) and records nothing.
 *
 *   bun bench/fake-upstream-server.ts --port 8082 [--behavior '{"chunkDelayMs":5}']
 */
import { parseArgs } from "node:util";
import { startFakeUpstream } from "../tests/support/fake-upstream";

const { values } = parseArgs({
  options: { port: { type: "string" }, hostname: { type: "string" }, behavior: { type: "string" } },
});

const fake = startFakeUpstream({
  port: Number(values.port ?? process.env.PORT ?? 0),
  hostname: values.hostname,
  behavior: values.behavior ? JSON.parse(values.behavior) : undefined,
  record: false,
  memoize: true,
});

console.log(`fake upstream listening on ${fake.url}`);
