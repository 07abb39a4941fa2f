import { median, startGateway, wrk } from "./support";

/** Cold start of `serve` on an empty SQLite file, to the first 200 on /api/status (median of 7). */
export async function coldStart(command?: string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const gateway = await startGateway({ command });
    times.push(gateway.startMs);
    await gateway.stop();
  }
  return median(times);
}

/** GET /api/user/self with a session cookie over keep-alive; server on CPU 0, wrk on CPU 1. */
export async function selfThroughput(seconds = 10) {
  const password = "bench-root-pass";
  const gateway = await startGateway({ cpu: 0, env: { INITIAL_ROOT_PASSWORD: password } });
  try {
    const login = await fetch(`${gateway.url}/api/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "root", password }),
    });
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const { data } = (await login.json()) as { data: { id: number } };
    const headers = { cookie, "New-Api-User": String(data.id) };
    await wrk(`${gateway.url}/api/user/self`, { seconds: 2, connections: 32, cpu: 1, headers });
    return await wrk(`${gateway.url}/api/user/self`, { seconds, connections: 64, cpu: 1, headers });
  } finally {
    await gateway.stop();
  }
}
