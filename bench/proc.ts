/**
 * CPU time and resident memory of a process, from /proc (Linux only), for the relay bench.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of utime/stime in /proc/<pid>/stat (USER_HZ; 100 on every Linux port in practice). */
export const CLOCK_TICKS = (() => {
  const out = Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim();
  return Number(out) || 100;
})();

/** The fields of /proc/<pid>/stat from field 3 on (the command name, field 2, may contain spaces). */
const statFields = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
};

/** utime + stime of every thread of the process, in µs. */
export function cpuMicros(pid: number): number {
  const fields = statFields(pid);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1_000_000) / CLOCK_TICKS;
}

/** Minor page faults of the process so far (memory the kernel had to map again, e.g. after the allocator gave it back). */
export function minorFaults(pid: number): number {
  return Number(statFields(pid)[7]);
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
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const micros = (ticks: string | undefined) => (Number(ticks) * 1_000_000) / CLOCK_TICKS;
      threads.push({ name, main: tid === String(pid), user: micros(fields[11]), sys: micros(fields[12]) });
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

/** The main thread's CPU so far, µs: in the program (user) and in the kernel on its behalf (sys). */
export function mainThreadTimes(pid: number): { user: number; sys: number } {
  const main = threadTimes(pid).find((t) => t.main);
  return { user: main?.user ?? 0, sys: main?.sys ?? 0 };
}

/** The main thread's context switches so far: voluntary (it waited) and not (it was preempted). */
export function contextSwitches(pid: number): { voluntary: number; preempted: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const count = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { voluntary: count("voluntary_ctxt_switches"), preempted: count("nonvoluntary_ctxt_switches") };
}
