/**
 * A fake upstream in its own process, for the relay bench: OpenAI chat completions (the default) or
 * Anthropic Messages (`--dialect anthropic`); answers repeated identical requests from precomputed bytes
 * (memoize) and records nothing.
 *
 *   bun bench/fake-upstream-server.ts --port 8082 [--dialect anthropic] [--behavior '{"chunkDelayMs":5}']
 */
import { parseArgs } from "node:util";
import { startFakeAnthropic } from "../tests/support/fake-anthropic";
import { startFakeUpstream } from "../tests/support/fake-upstream";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    hostname: { type: "string" },
    behavior: { type: "string" },
    dialect: { type: "string" },
  },
});
const starters = { openai: startFakeUpstream, anthropic: startFakeAnthropic };
const dialect = (values.dialect ?? "openai") as keyof typeof starters;
if (!(dialect in starters)) throw new Error(`--dialect: one of ${Object.keys(starters).join(", ")}`);

const fake = starters[dialect]({
  port: Number(values.port ?? process.env.PORT ?? 0),
  hostname: values.hostname,
  behavior: values.behavior ? JSON.parse(values.behavior) : undefined,
  record: false,
  memoize: true,
});

console.log(`fake ${dialect} upstream listening on ${fake.url}`);
