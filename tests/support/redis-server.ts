import { spawn, type Subprocess } from "bun";
import { connect } from "node:net";

/** A `redis-server` of a test's own, on its own port, so the test can stop it without touching the machine's. */
export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });

/** Starts `redis-server` without persistence on a free port below the ephemeral range. */
export async function startOwnRedis(): Promise<OwnRedis> {
  for (let attempt = 1; ; attempt++) {
    const port = 12000 + Math.floor(Math.random() * 8000);
    const server: Subprocess = spawn({
      cmd: ["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      stdout: "ignore",
      stderr: "ignore",
    });
    for (let i = 0; i < 100 && server.exitCode === null; i++) {
      if (await answers(port)) {
        return {
          url: `redis://127.0.0.1:${port}`,
          async stop() {
            server.kill("SIGKILL");
            await server.exited;
          },
        };
      }
      await Bun.sleep(20);
    }
    server.kill("SIGKILL");
    if (attempt === 3) throw new Error("redis-server did not start");
  }
}
