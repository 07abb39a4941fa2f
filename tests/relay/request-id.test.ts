import { expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { newRequestId } from "../../src/gateway/relay/request-id";

test("a request id is the UTC second then 12 random characters, different for every call", () => {
  const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const from = stamp(Date.now());
  const ids = Array.from({ length: 5000 }, () => newRequestId());
  const to = stamp(Date.now());
  for (const id of ids) expect(id).toMatch(/^\d{14}[A-Za-z0-9]{12}$/);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of [ids[0]!, ids.at(-1)!]) {
    expect(id.slice(0, 14) >= from).toBe(true);
    expect(id.slice(0, 14) <= to).toBe(true);
  }
});

test("a kept request id is one string object (an open stream keeps its id, every collection marks it)", () => {
  for (let i = 0; i < 3000; i++) newRequestId();
  Bun.gc(true);
  const before = heapStats().objectCount;
  const kept = Array.from({ length: 2000 }, () => newRequestId());
  Bun.gc(true);
  // Made with `+`, an id was four: the pair, its two pieces and the pool of random characters its slice held.
  expect((heapStats().objectCount - before) / kept.length).toBeLessThan(1.1);
  expect(kept[0]!.length).toBe(26);
});
