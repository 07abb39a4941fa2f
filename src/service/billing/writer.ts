import { readFileSync } from "node:fs";

/**
 * Which process writes a journal: its pid and, on Linux, the time it started (clock ticks since boot, from
 * /proc/<pid>/stat). A pid alone is not enough: a dead writer's pid may be a zombie its parent has not reaped, or
 * another process's once reused (pid 1 again in a restarted container); the start time tells them apart.
 */
export interface Writer {
  pid: number;
  /** "" where the system has no /proc (then the pid alone is checked), or for files of earlier versions. */
  start: string;
}

/** A process's state letter and start time, from /proc/<pid>/stat; undefined when there is no such process. */
function procStat(pid: number): { state: string; start: string } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses: fields are counted after its end.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", start: fields[19] ?? "" };
}

const hasProc = procStat(process.pid) !== undefined;

/** This process, as its journals name it. */
export const thisWriter: Writer = { pid: process.pid, start: procStat(process.pid)?.start ?? "" };

/** Whether `pid` answers a signal (where there is no /proc). The same pid as ours is a restart (pid 1 in a container), not us. */
function answersSignal(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the process that wrote a journal still runs: not gone, not a zombie, not a later process with its pid. */
export function isRunning(writer: Writer): boolean {
  if (!Number.isSafeInteger(writer.pid) || writer.pid <= 0) return false;
  if (!hasProc) return answersSignal(writer.pid);
  const now = procStat(writer.pid);
  if (!now || now.state === "Z" || now.state === "X") return false;
  if (writer.start) return now.start === writer.start;
  return writer.pid !== process.pid;
}

/** `<pid>.<start>` (or `<pid>` without a start time): how a file name records its writer. */
export const writerLabel = (writer: Writer) => (writer.start ? `${writer.pid}.${writer.start}` : String(writer.pid));

/** The writer a label names (see `writerLabel`). */
export function writerOfLabel(label: string): Writer {
  const dot = label.indexOf(".");
  return dot < 0
    ? { pid: Number(label), start: "" }
    : { pid: Number(label.slice(0, dot)), start: label.slice(dot + 1) };
}
