import { afterAll, beforeAll, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { type HeldRelay, openRawCall, startHeldRelay } from "./held-calls";

/**
 * How many objects an open call keeps, counted in this process (the fake upstream's and the raw client's share of
 * a call included): every full collection marks each of them, so with thousands of calls open their number is
 * the collection's length and how soon the next one comes. A call waiting for its first token keeps what a retry
 * needs; a stream past its head, what relaying and billing it need.
 */
const CALLS = 100;

let held: HeldRelay;

beforeAll(async () => {
  held = await startHeldRelay(["wait-model", "stream-model"]);
});

afterAll(() => held.stop());

/** The objects `CALLS` more open calls of `model` keep, each. */
async function objectsPerCall(model: string): Promise<number> {
  const body = JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "hello there" }] });
  const open = () => openRawCall(held.env, body, model.startsWith("wait-") ? "sent" : "first chunk");
  for (let i = 0; i < 20; i++) await open(); // warmed: the compiler's own objects are not the calls'
  await Bun.sleep(300);
  Bun.gc(true);
  const before = heapStats().objectCount;
  for (let i = 0; i < CALLS; i++) await open();
  await Bun.sleep(300); // waiting calls: until the gateway has sent each upstream
  Bun.gc(true);
  return (heapStats().objectCount - before) / CALLS;
}

test("a call waiting for its first token keeps its request and retry state in under 92 objects", async () => {
  // 89–90 here; 94 when each try on a channel was an async closure in the loop (its scope, frame and promise); 97
  // with a closure per deadline timer; 109 when the upstream request's head was built with `+=` (~30 pieces, kept
  // for a retry) and the request id was a pair of pieces; 116 when the response parser also kept its own answer
  // and framing objects.
  expect(await objectsPerCall("wait-model")).toBeLessThan(92);
});

test("a stream past its head keeps under 78 objects", async () => {
  // 73–74 here; 84 when its kept text was a string per run, its reply a queue array and its parser's answer its own.
  expect(await objectsPerCall("stream-model")).toBeLessThan(78);
});
