/**
 * Portkey's open-source AI gateway (npm `@portkey-ai/gateway`, a dev dependency) as a bench target beside the
 * forwarder and Tollgate. It routes by request headers: provider `openai` with the fake as its custom host.
 * It runs on Bun: under this machine's Node.js 20 every call fails inside Portkey (it appends a header to a
 * fetched Response's headers, which Node's fetch makes immutable).
 */
import { spawn } from "bun";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Target } from "./relay";
import { freePort, ROOT, untilAnswering } from "./support";

/** The gateway's start script, or undefined when the package is not installed. */
export function portkeyScript(): string | undefined {
  try {
    const script = join(dirname(Bun.resolveSync("@portkey-ai/gateway/package.json", ROOT)), "build/start-server.js");
    return existsSync(script) ? script : undefined;
  } catch {
    return undefined;
  }
}

/** Starts Portkey with `wrap` around its command (pinning, limits), relaying to the OpenAI-style upstream at `upstreamUrl`. */
export async function startPortkey(
  script: string,
  upstreamUrl: string,
  wrap: (cmd: string[]) => string[],
): Promise<Target> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn({
    cmd: wrap(["bun", script, `--port=${port}`, "--headless"]),
    // Portkey relays with fetch, which holds 256 requests in flight by default: the same allowance as the forwarder's.
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "65535" },
    stdout: "ignore",
    stderr: "ignore",
  });
  await untilAnswering("portkey", proc, url);
  return {
    name: "Portkey",
    url,
    pid: proc.pid,
    key: "bench-upstream-key",
    headers: { "x-portkey-provider": "openai", "x-portkey-custom-host": `${upstreamUrl}/v1` },
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
