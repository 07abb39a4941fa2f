/**
 * CPU time and resident memory of a process, from /proc (Linux only), for the relay bench.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of utime/stime in /proc/<pid>/stat (USER_HZ; 100 on every Linux port in practice). */
export const CLOCK_TICKS = (() => {
  const out = Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim();
  return Number(out) || 100;
})();

/**
 * The fields of a stat file (/proc/<pid>/stat, or a thread's /proc/<pid>/task/<tid>/stat) from field 3 on (the
 * command name, field 2, may contain spaces).
 */
const statFields = (path: string) => {
  const stat = readFileSync(path, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
};

/** Clock ticks in µs. */
const micros = (ticks: string | undefined) => (Number(ticks) * 1_000_000) / CLOCK_TICKS;

/** The CPU in a stat file's fields, µs: in the program (utime) and in the kernel on its behalf (stime). */
const timesOf = (fields: string[]) => ({ user: micros(fields[11]), sys: micros(fields[12]) });

/** utime + stime of every thread of the process, in µs. */
export function cpuMicros(pid: number): number {
  const { user, sys } = timesOf(statFields(`/proc/${pid}/stat`));
  return user + sys;
}

/** Minor page faults of the process so far (memory the kernel had to map again, e.g. after the allocator gave it back). */
export function minorFaults(pid: number): number {
  return Number(statFields(`/proc/${pid}/stat`)[7]);
}

/** VmRSS of the process, in bytes. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb === undefined ? NaN : Number(kb) * 1024;
}

/** Samples a process's VmRSS every `everyMs` until stopped; returns the samples (bytes). */
export function sampleRss(pid: number, everyMs: number): { stop(): number[] } {
  const samples: number[] = [];
  const take = () => {
    try {
      samples.push(rssBytes(pid));
    } catch {}
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/** One thread's CPU so far, µs: in the program (user) and in the kernel on its behalf (sys). */
export interface ThreadTime {
  name: string;
  main: boolean;
  user: number;
  sys: number;
}

/** Every thread of the process: its name (a trailing number as `#`), whether it is the main thread, its CPU. */
export function threadTimes(pid: number): ThreadTime[] {
  const threads: ThreadTime[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim().replace(/\d+$/, "#");
      threads.push({ name, main: tid === String(pid), ...timesOf(statFields(`/proc/${pid}/task/${tid}/stat`)) });
    } catch {}
  }
  return threads;
}

/** utime + stime per thread name of the process (threads of one name summed), in µs. */
export function cpuMicrosByThread(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const t of threadTimes(pid)) byName.set(t.name, (byName.get(t.name) ?? 0) + t.user + t.sys);
  return byName;
}

/** The CPU of the engine's compiler threads so far (JavaScriptCore names them `JITWorker`), µs. */
export function compilerMicros(pid: number): number {
  let sum = 0;
  for (const t of threadTimes(pid)) if (t.name.startsWith("JIT")) sum += t.user + t.sys;
  return sum;
}

/** The main thread's CPU so far, µs: in the program (user) and in the kernel on its behalf (sys). */
export function mainThreadTimes(pid: number): { user: number; sys: number } {
  return timesOf(statFields(`/proc/${pid}/task/${pid}/stat`));
}

/** The main thread's context switches so far: voluntary (it waited) and not (it was preempted). */
export function contextSwitches(pid: number): { voluntary: number; preempted: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const count = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { voluntary: count("voluntary_ctxt_switches"), preempted: count("nonvoluntary_ctxt_switches") };
}
