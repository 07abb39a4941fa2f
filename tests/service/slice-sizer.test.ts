import { describe, expect, test } from "bun:test";
import { SliceSizer } from "../../src/service/billing/slice-sizer";

describe("a SQLite flush's slices are sized to a time budget", () => {
  test("before any slice was timed, the least", () => {
    expect(new SliceSizer(4, 64, 4096).next()).toBe(64);
  });

  test("charges written fast make larger slices, up to what the budget holds", () => {
    const sizer = new SliceSizer(4, 64, 4096);
    const sizes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const size = sizer.next();
      sizes.push(size);
      sizer.observe(size, size * 0.01); // 10 µs a charge: 400 fit in 4 ms
    }
    expect(sizes[1]).toBeGreaterThan(sizes[0]!);
    expect(sizes.at(-1)).toBeGreaterThan(390);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(400);
  });

  test("charges written slowly shrink the slices again, never below the least", () => {
    const sizer = new SliceSizer(4, 64, 4096);
    for (let i = 0; i < 12; i++) sizer.observe(sizer.next(), sizer.next() * 0.01);
    sizer.observe(400, 400 * 0.1); // a cold cache: 100 µs a charge
    expect(sizer.next()).toBeLessThan(100);
    for (let i = 0; i < 4; i++) sizer.observe(64, 64);
    expect(sizer.next()).toBe(64);
  });

  test("the most is bounded, and a slice too small to time its charges changes nothing", () => {
    const sizer = new SliceSizer(4, 64, 4096);
    for (let i = 0; i < 20; i++) sizer.observe(1000, 0.1);
    expect(sizer.next()).toBe(4096);
    sizer.observe(5, 20); // 5 charges, most of it the commit's fixed cost
    expect(sizer.next()).toBe(4096);
  });
});
