/**
 * The sensitive-word filter's cost on the relay: 1000 words (English-like and Chinese), a 2 KB chat prompt
 * without any of them (the usual case: the whole text is scanned), the prompt check as the relay runs it
 * (walk the parsed body, scan every text). Run alone: `bun bench/sensitive-words.ts`.
 */
import type { ServiceContext } from "../src/service/context";
import { checkPrompt } from "../src/service/relay/sensitive/prompt-check";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Deterministic words: four in five of 5–10 letters, one in five of two CJK characters. */
function words(count: number): string[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  return Array.from({ length: count }, (_, i) =>
    i % 5 === 0
      ? String.fromCharCode(0x4e00 + Math.floor(next() * 2000), 0x4e00 + Math.floor(next() * 2000))
      : Array.from({ length: 5 + Math.floor(next() * 6) }, () => LETTERS[Math.floor(next() * 26)]).join(""),
  );
}

const PROMPT = "Please summarise the gateway's design: tokens, channels, quotas, logs and how retries work. 你好。 "
  .repeat(30)
  .slice(0, 2048);

export function sensitiveWordsBench(): { microsPerCall: number; words: number; promptChars: number } {
  const list = words(1000).join("\n");
  const options = { bool: () => true, raw: () => list };
  const ctx = { options } as unknown as ServiceContext;
  const body = JSON.parse(
    JSON.stringify({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are helpful." },
        { role: "user", content: PROMPT },
      ],
    }),
  );
  const run = (n: number) => {
    for (let i = 0; i < n; i++) checkPrompt(ctx, [body]);
  };
  run(20_000);
  const calls = 100_000;
  const started = performance.now();
  run(calls);
  return { microsPerCall: ((performance.now() - started) * 1000) / calls, words: 1000, promptChars: PROMPT.length };
}

if (import.meta.main) {
  const { microsPerCall } = sensitiveWordsBench();
  console.log(`sensitive words, 1000 words, 2 KB prompt: ${microsPerCall.toFixed(2)} µs per call  [target <= 5 µs]`);
}
