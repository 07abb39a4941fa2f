import { spawn, type Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");

export function freePort(): number {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}

/** Waits until a started process answers at `url`; throws if it exits or does not answer within 15 s. */
export async function untilAnswering(name: string, proc: Subprocess, url: string): Promise<void> {
  const started = performance.now();
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {}
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}`);
    if (performance.now() - started > 15_000) throw new Error(`${name} did not start within 15 s`);
    await Bun.sleep(10);
  }
}

export interface Gateway {
  url: string;
  proc: Subprocess;
  /** ms from spawn to the first 200 on /api/status. */
  startMs: number;
  stop(): Promise<void>;
}

/** Each line of a process's stderr to `take`; the lines it does not take go to this process's stderr. */
async function readLines(stream: ReadableStream<Uint8Array>, take: (line: string) => boolean): Promise<void> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const bytes of stream) {
    const lines = (rest + decoder.decode(bytes, { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (!take(line)) process.stderr.write(`${line}\n`);
  }
  if (rest && !take(rest)) process.stderr.write(`${rest}\n`);
}

/**
 * Starts `serve` on an empty SQLite database in a temp folder, optionally pinned to a CPU. `stderrLine` reads its
 * stderr line by line (e.g. the collector's log); otherwise it is this process's.
 */
export async function startGateway(
  options: {
    command?: string[];
    cpu?: number;
    env?: Record<string, string>;
    stderrLine?: (line: string) => boolean;
  } = {},
): Promise<Gateway> {
  const dir = mkdtempSync(join(tmpdir(), "tollgate-bench-"));
  const port = freePort();
  const command = options.command ?? ["bun", join(ROOT, "src/main.ts"), "serve"];
  const cmd = options.cpu === undefined ? command : ["taskset", "-c", String(options.cpu), ...command];
  const started = performance.now();
  const proc = spawn({
    cmd,
    cwd: dir,
    // The fake upstreams listen on loopback, which the upstream address policy refuses unless allowed.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SQLITE_PATH: join(dir, "tollgate.db"),
      UPSTREAM_ALLOW_PRIVATE: "127.0.0.0/8",
      ...options.env,
    },
    stdout: "ignore",
    stderr: options.stderrLine ? "pipe" : "inherit",
  });
  if (options.stderrLine) void readLines(proc.stderr as ReadableStream<Uint8Array>, options.stderrLine);
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      const response = await fetch(`${url}/api/status`);
      if (response.status === 200) break;
    } catch {}
    if (performance.now() - started > 15_000) throw new Error("gateway did not start within 15 s");
    await Bun.sleep(1);
  }
  const startMs = performance.now() - started;
  return {
    url,
    proc,
    startMs,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

/** Runs wrk (Debian's package) against a URL and parses its summary. */
export async function wrk(
  url: string,
  options: { seconds: number; connections: number; threads?: number; cpu?: number; headers?: Record<string, string> },
): Promise<WrkResult> {
  const args = ["wrk", "--latency", `-t${options.threads ?? 1}`, `-c${options.connections}`, `-d${options.seconds}s`];
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push("-H", `${k}: ${v}`);
  args.push(url);
  const cmd = options.cpu === undefined ? args : ["taskset", "-c", String(options.cpu), ...args];
  const proc = spawn({ cmd, stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const latency = (pct: string) => {
    const m = new RegExp(`${pct}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!m) return NaN;
    const value = Number(m[1]);
    return m[2] === "us" ? value / 1000 : m[2] === "s" ? value * 1000 : value;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return { requestsPerSecond: rps, p50Ms: latency("50"), p99Ms: latency("99"), non2xx };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
