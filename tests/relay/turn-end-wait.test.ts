import { expect, test } from "bun:test";
import { afterThisTurn, NOT_YET } from "../../src/gateway/relay/timed-read";

const settled = (promise: Promise<unknown>) => Bun.peek.status(promise) === "fulfilled";

test("the callers of one short turn share one wait, settled when the turn ends", async () => {
  const first = afterThisTurn();
  const second = afterThisTurn();
  expect(second).toBe(first);
  expect(settled(first)).toBe(false);
  expect(await first).toBe(NOT_YET);
});

test("a long turn does not hold a stream's first bytes until its end: the next caller settles an older wait", async () => {
  const first = afterThisTurn();
  // A turn busy for a few milliseconds (thousands of open streams make such turns) before the next stream starts.
  const until = performance.now() + 5;
  while (performance.now() < until) {}
  const second = afterThisTurn();
  await Promise.resolve();
  expect(settled(first)).toBe(true);
  expect(second).not.toBe(first);
  expect(settled(second)).toBe(false);
  expect(await second).toBe(NOT_YET);
});
