import { readdirSync, readFileSync } from "node:fs";

/** Linux's SCHED_BATCH: a thread of this policy does not preempt the running one when it wakes up. */
export const SCHED_BATCH = 3;
/** The thread Bun runs every fetch on; it exists from the process's first fetch on. */
export const UPSTREAM_THREAD_NAME = "HTTP Client";

/** Ids of the threads named `name` of process `pid` (this one by default), from /proc. */
export function threadsNamed(name: string, pid: number | "self" = "self"): number[] {
  const ids: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trimEnd() === name) ids.push(Number(tid));
    } catch {}
  }
  return ids;
}

/** The scheduling policy of thread `tid` (field 41 of its stat; the name before it may hold spaces). */
export function threadPolicy(tid: number): number {
  const stat = readFileSync(`/proc/${tid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[38]);
}

/** Sets a scheduling policy (priority 0) on each thread through libc; answers the ids it was set on. */
export async function setThreadPolicy(tids: number[], policy: number): Promise<number[]> {
  const { dlopen, FFIType, ptr } = await import("bun:ffi");
  const libc = dlopen("libc.so.6", { sched_setscheduler: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
  try {
    const priority = new Int32Array(1);
    return tids.filter((tid) => libc.symbols.sched_setscheduler(tid, policy, ptr(priority)) === 0);
  } finally {
    libc.close();
  }
}

/** Sets SCHED_BATCH on the upstream threads; anything that fails (no libc, not Linux) leaves the default policy. */
async function ease(tids: number[]): Promise<number[]> {
  try {
    return await setThreadPolicy(tids, SCHED_BATCH);
  } catch {
    return [];
  }
}

/**
 * Lets the main thread finish its turn before the upstream thread runs. When both share one core (a one-vCPU
 * server, a container limited to one CPU), every fetch wakes Bun's HTTP client thread, which takes the core at
 * once: two context switches per call instead of one per batch of calls. Answers the threads it was set on
 * (none before the process's first fetch, or off Linux).
 */
export async function easeUpstreamThread(): Promise<number[]> {
  if (process.platform !== "linux") return [];
  try {
    return await ease(threadsNamed(UPSTREAM_THREAD_NAME));
  } catch {
    return [];
  }
}

/** Looks for the upstream thread every second until it exists (the first fetch makes it), then eases it once. */
export function easeUpstreamThreadWhenStarted(): () => void {
  if (process.platform !== "linux") return () => {};
  const timer = setInterval(() => {
    let tids: number[];
    try {
      tids = threadsNamed(UPSTREAM_THREAD_NAME);
    } catch {
      return clearInterval(timer); // no /proc to look in: nothing to ease
    }
    if (tids.length === 0) return;
    clearInterval(timer);
    void ease(tids);
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
