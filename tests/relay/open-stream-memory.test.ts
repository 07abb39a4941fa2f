import { afterAll, beforeAll, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { type HeldRelay, openRawCall, startHeldRelay } from "./held-calls";

const PROMPT_BYTES = 64 * 1024;
const STREAMS = 20;

let held: HeldRelay;

beforeAll(async () => {
  held = await startHeldRelay(["held-model"]);
});

afterAll(() => held.stop());

/** Opens a streamed call with a long prompt over a raw socket (nothing of it kept here) and waits for its first chunk. */
function openStream(i: number): Promise<void> {
  const prompt = `call ${i}: ${"lorem ipsum ".repeat(PROMPT_BYTES / 12)}`;
  const body = JSON.stringify({ model: "held-model", stream: true, messages: [{ role: "user", content: prompt }] });
  return openRawCall(held.env, body, "first chunk");
}

function liveHeap(): number {
  Bun.gc(true);
  const { heapSize, extraMemorySize } = heapStats();
  return heapSize + extraMemorySize;
}

test("an open stream does not keep its request: the live heap grows by far less than the prompt's copies per stream", async () => {
  await openStream(-1);
  const before = liveHeap();
  for (let i = 0; i < STREAMS; i++) await openStream(i);
  const perStream = (liveHeap() - before) / STREAMS;
  // Measured 160–170 KiB here (the fake upstream's side included); 427 KiB when the call's state stayed with the stream.
  expect(perStream).toBeLessThan(4 * PROMPT_BYTES);
});
