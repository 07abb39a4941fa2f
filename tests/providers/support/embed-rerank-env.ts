import { afterAll, beforeAll } from "bun:test";
import { startRelayEnv, type RelayEnv } from "../../relay/support";
import type { DialectName } from "../../../src/db/connect";
import type { LoopbackFake } from "../../support/loopback-fake";

export const EMBED_MODEL = "family-embed-model";
export const RERANK_MODEL = "family-rerank-model";
export const RATIO = 2;

/** A relay with one channel of `type` serving an embedding and a rerank model, priced at RATIO, for a describe block. */
export function embedRerankEnv(dialect: DialectName, type: number, start: (key: string) => LoopbackFake, key: string) {
  const env = { r: undefined as unknown as RelayEnv, upstream: undefined as unknown as LoopbackFake };
  beforeAll(async () => {
    env.r = await startRelayEnv(dialect);
    await env.r.setPrices({ [EMBED_MODEL]: RATIO, [RERANK_MODEL]: RATIO, "family-chat": RATIO });
    env.upstream = start(key);
    await env.r.addChannel({ type, key, models: `${EMBED_MODEL},${RERANK_MODEL},family-chat` }, env.upstream.asFake());
  });
  afterAll(async () => {
    await env.r.stop();
    await env.upstream.stop();
  });
  return env;
}

/** POST /v1/rerank as a client sends it (the openai SDK has no rerank). */
export async function rerank(r: RelayEnv, body: Record<string, unknown>) {
  const reply = await fetch(`${r.s.url}/v1/rerank`, {
    method: "POST",
    headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: RERANK_MODEL, ...body }),
  });
  return { status: reply.status, body: (await reply.json()) as any };
}
