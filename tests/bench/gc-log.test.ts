import { describe, expect, test } from "bun:test";
import { describeWindow, GC_LOG_ENV, GcLog, inWindow, perCall } from "../../bench/gc-log";

/** A Bun process that allocates ~64 MB of short-lived objects with its collector's log on, read by a GcLog. */
async function loggedRun(): Promise<{ log: GcLog; other: string[] }> {
  const script =
    "let keep = []; for (let i = 0; i < 1_000_000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 1000) keep = []; }";
  const proc = Bun.spawn({
    cmd: [process.execPath, "-e", script],
    env: { ...process.env, ...GC_LOG_ENV },
    stdout: "ignore",
    stderr: "pipe",
  });
  const text = await new Response(proc.stderr).text();
  await proc.exited;
  const log = new GcLog();
  const other = text.split("\n").filter((line) => line !== "" && !log.take(line));
  return { log, other };
}

describe("the collector's log (bench/gc-log.ts)", () => {
  test("reads the engine's own log: bytes allocated, collections and their pauses, and nothing else", async () => {
    const { log, other } = await loggedRun();
    const totals = log.now();
    // A million objects of two cells each, and their strings: tens of megabytes, many eden collections.
    expect(totals.allocatedBytes).toBeGreaterThan(20_000_000);
    expect(totals.allocatedBytes).toBeLessThan(400_000_000);
    expect(totals.eden).toBeGreaterThan(1);
    expect(totals.edenPauseMs).toBeGreaterThan(0);
    expect(other).toEqual([]);
  });

  test("a collection's line broken in two by other output still counts its pause for its kind", () => {
    const log = new GcLog();
    expect(log.take("Requesting GC because bytes allocated this cycle: 4096 exceed bytes allowed: 4000")).toBe(true);
    expect(log.take("[GC<0x1>: START M 9000kb => FullCollection, a=0kb hf=0.000 mu=0.600 v=0kb")).toBe(true);
    expect(log.take("a line of the server's own")).toBe(false);
    expect(log.take(" v=274kb (C:274 M:0) => 1200kb, p=2.5ms (max 2.5), cycle 2.4ms END]")).toBe(true);
    const figures = perCall({ allocatedBytes: 0, eden: 0, full: 0, edenPauseMs: 0, fullPauseMs: 0 }, log.now(), 2);
    expect(figures).toEqual({
      kibAllocated: 2,
      edenPer1000: 0,
      fullPer1000: 500,
      pauseMicros: 1250,
      fullPauseMicros: 1250,
    });
  });

  test("a window's collections: the bytes allocated, collections by kind, their mean pauses, the stops a second", () => {
    const before = { allocatedBytes: 0, eden: 10, full: 2, edenPauseMs: 20, fullPauseMs: 40 };
    const after = { allocatedBytes: 9, eden: 14, full: 5, edenPauseMs: 28, fullPauseMs: 100 };
    const window = inWindow(before, after, 2);
    expect(window).toEqual({
      allocatedBytes: 9,
      full: 3,
      fullMeanMs: 20,
      eden: 4,
      edenMeanMs: 2,
      stoppedMsPerSecond: 34,
    });
    expect(describeWindow(window)).toBe("full 3 × 20.0 ms, eden 4 × 2.0 ms, stopped 34.0 ms a second");
    expect(inWindow(after, after, 2)).toEqual({
      allocatedBytes: 0,
      full: 0,
      fullMeanMs: 0,
      eden: 0,
      edenMeanMs: 0,
      stoppedMsPerSecond: 0,
    });
  });
});
