import { expect } from "bun:test";
import { registeredUser, type ConsoleSession } from "./console";

/**
 * Makes real relay calls of `model` (priced here) as a new user with quota, one per User-Agent, so the logs and the
 * channel's callers have rows; answers the user's client.
 */
export async function callAs(session: ConsoleSession, model: string, userAgents: string[]) {
  const root = session.root;
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ [model]: 1 }) });
  const caller = await registeredUser(session);
  await root.put("/api/user/", { id: caller.userId, quota: 1_000_000 });
  const token = await caller.post("/api/token/", { name: "caller", remain_quota: 500_000 });
  for (const userAgent of userAgents) {
    const reply = await fetch(`${session.url}/v1/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token.body.data.keys[0]}`,
        "content-type": "application/json",
        "user-agent": userAgent,
      },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(reply.status).toBe(200);
    await reply.text();
  }
  return caller;
}
