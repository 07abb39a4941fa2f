/**
 * What the engine's collector did, read from its own log (`BUN_JSC_logGC=1` on the server's stderr): the bytes
 * allocated, the collections of each kind and their pauses. Allocation per call is a count, not a timing: the same
 * build and call read the same figure run after run on a busy machine, where CPU per call varies by a fifth.
 */

/** The environment that has a server's engine log its collections. */
export const GC_LOG_ENV = { BUN_JSC_logGC: "1" } as const;

export interface GcTotals {
  /** Bytes allocated, summed over the collections' cycles (the last cycle, not yet collected, is not counted). */
  allocatedBytes: number;
  eden: number;
  full: number;
  edenPauseMs: number;
  fullPauseMs: number;
}

const ALLOCATED = /bytes allocated this cycle: (\d+)/;
const PAUSE = /, p=([\d.]+)ms/;
const KIND = /=> (Eden|Full)Collection/;

/**
 * Running totals of a server's collector log, fed line by line. A collection's line names its kind first and its
 * pause last, and other output may break it in two: the pause goes to the kind last named.
 */
export class GcLog {
  private totals: GcTotals = { allocatedBytes: 0, eden: 0, full: 0, edenPauseMs: 0, fullPauseMs: 0 };
  private kind: "eden" | "full" | undefined;

  /** Takes one line of the server's stderr; false when it is not the collector's (to be shown as usual). */
  take(line: string): boolean {
    const allocated = ALLOCATED.exec(line);
    if (allocated) {
      this.totals.allocatedBytes += Number(allocated[1]);
      return true;
    }
    const kind = KIND.exec(line);
    if (kind) {
      this.kind = kind[1] === "Full" ? "full" : "eden";
      this.totals[this.kind]++;
    }
    const pause = PAUSE.exec(line);
    if (pause && this.kind) {
      this.totals[this.kind === "full" ? "fullPauseMs" : "edenPauseMs"] += Number(pause[1]);
      this.kind = undefined;
    }
    return line.startsWith("[GC<") || line.endsWith("END]") || line === "GC END!" || kind !== null;
  }

  now(): GcTotals {
    return { ...this.totals };
  }
}

/** What the collector did per call between two readings of `calls` calls. */
export function perCall(before: GcTotals, after: GcTotals, calls: number) {
  return {
    kibAllocated: (after.allocatedBytes - before.allocatedBytes) / 1024 / calls,
    edenPer1000: ((after.eden - before.eden) * 1000) / calls,
    fullPer1000: ((after.full - before.full) * 1000) / calls,
    pauseMicros: ((after.edenPauseMs + after.fullPauseMs - before.edenPauseMs - before.fullPauseMs) * 1000) / calls,
    fullPauseMicros: ((after.fullPauseMs - before.fullPauseMs) * 1000) / calls,
  };
}

/** "13.3 KiB allocated, 4.1 eden + 0.58 full per 1000 calls, pauses 20.8 µs (full 12.1)" */
export function describePerCall(figures: ReturnType<typeof perCall>): string {
  return (
    `${figures.kibAllocated.toFixed(1)} KiB allocated, ${figures.edenPer1000.toFixed(1)} eden + ` +
    `${figures.fullPer1000.toFixed(2)} full per 1000 calls, pauses ${figures.pauseMicros.toFixed(1)} µs ` +
    `(full ${figures.fullPauseMicros.toFixed(1)})`
  );
}

/**
 * What the collector did over a window of `seconds`: the bytes allocated, its collections of each kind, their mean
 * pause, the stops a second.
 */
export function inWindow(before: GcTotals, after: GcTotals, seconds: number) {
  const full = after.full - before.full;
  const eden = after.eden - before.eden;
  const fullMs = after.fullPauseMs - before.fullPauseMs;
  const edenMs = after.edenPauseMs - before.edenPauseMs;
  return {
    allocatedBytes: after.allocatedBytes - before.allocatedBytes,
    full,
    fullMeanMs: full > 0 ? fullMs / full : 0,
    eden,
    edenMeanMs: eden > 0 ? edenMs / eden : 0,
    stoppedMsPerSecond: (fullMs + edenMs) / seconds,
  };
}

/** "full 5 × 21.3 ms, eden 32 × 2.1 ms, stopped 41.3 ms a second" */
export function describeWindow(figures: ReturnType<typeof inWindow>): string {
  return (
    `full ${figures.full} × ${figures.fullMeanMs.toFixed(1)} ms, eden ${figures.eden} × ` +
    `${figures.edenMeanMs.toFixed(1)} ms, stopped ${figures.stoppedMsPerSecond.toFixed(1)} ms a second`
  );
}
