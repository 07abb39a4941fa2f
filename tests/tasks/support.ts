import { taskFetcher } from "../../src/gateway/relay/tasks/task-fetcher";
import type { ServiceContext } from "../../src/service/context";
import { TaskPoller } from "../../src/service/tasks/poller";
import type { RelayEnv } from "../relay/support";

/** A poller over `ctx` as the server starts it (its rounds run when the test says, not on a timer). */
export const pollerOf = (ctx: ServiceContext) => new TaskPoller(ctx, taskFetcher(ctx));

/** A plain-HTTP call to the relay, as midjourney-proxy and Suno clients make them. */
export async function call(
  r: RelayEnv,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${r.key}` },
) {
  const response = await fetch(`${r.s.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, body: json, headers: response.headers };
}

/** Sets site options through the API, as an admin would. */
export async function setOptions(r: RelayEnv, options: Record<string, string>) {
  for (const [key, value] of Object.entries(options)) {
    const reply = await r.s.root.put("/api/option/", { key, value });
    if (!reply.body.success) throw new Error(`${key}: ${reply.body.message}`);
  }
}

/** The refund log rows (type 6). */
export async function refundLogs(r: RelayEnv) {
  await r.flushed();
  return r.s.ctx.db.k.selectFrom("logs").selectAll().where("type", "=", 6).orderBy("id").execute();
}
