import { spawn, type Subprocess } from "bun";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
/** Instances of one deployment share the server secret (each runs in its own folder). */
export const SHARED_SECRET = "the-secret-every-instance-of-the-test-shares-42";

export interface Instance {
  url: string;
  process: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything the process wrote on stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number>;
}

/**
 * A `serve` process from source in a folder of its own, on the database of `env` (SQL_DSN…), with every line it
 * writes kept; nothing is retried, so a start that fails shows as it is. Ports are below the ephemeral range.
 */
export function spawnInstance(env: Record<string, string>): Instance {
  const port = 20000 + Math.floor(Math.random() * 12000);
  const dir = mkdtempSync(join(tmpdir(), "tollgate-instance-"));
  const child = spawn({
    cmd: ["bun", join(ROOT, "src/main.ts"), "serve"],
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SQLITE_PATH: join(dir, "t.db"),
      SESSION_SECRET: SHARED_SECRET,
      REDIS_CONN_STRING: "",
      INITIAL_ROOT_PASSWORD: "root-pass-1234",
      ...env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) text += decoder.decode(chunk);
  };
  const read = Promise.all([collect(child.stdout), collect(child.stderr)]);
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => text,
    exited: child.exited.then(async (code) => {
      await read;
      return code;
    }),
  };
}

/** Resolves true once the instance answers /healthz, false once it exits or `ms` pass. */
export async function answers(instance: Instance, ms = 30_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until && instance.process.exitCode === null) {
    try {
      if ((await fetch(`${instance.url}/healthz`)).ok) return true;
    } catch {}
    await Bun.sleep(50);
  }
  return false;
}

/** A redis-server of the test's own on a free port, that it may stop and start again. */
export class OwnRedis {
  readonly port = 16400 + Math.floor(Math.random() * 2000);
  private server: Subprocess | undefined;
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = spawn({
      cmd: ["redis-server", "--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      stdout: "ignore",
      stderr: "ignore",
    });
    for (let i = 0; i < 100; i++) {
      const probe = await Bun.connect({ hostname: "127.0.0.1", port: this.port, socket: { data() {} } }).catch(
        () => undefined,
      );
      if (probe) {
        probe.end();
        return;
      }
      await Bun.sleep(50);
    }
    throw new Error("redis-server did not start");
  }

  async stop(): Promise<void> {
    this.server?.kill("SIGKILL");
    await this.server?.exited;
    this.server = undefined;
  }
}
