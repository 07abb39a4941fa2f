import { relayStream, type StreamOutcome } from "../../src/gateway/relay/stream";

/** Relays an upstream event stream of a chat call to the end: what the client got and what billing saw. */
export async function relayToEnd(
  upstream: ReadableStream<Uint8Array>,
  clientWantsUsage = false,
  onEnd?: (outcome: StreamOutcome) => void,
): Promise<{ body: string; outcome: StreamOutcome }> {
  let ended: StreamOutcome | undefined;
  const body = await relayStream({
    kind: "chat",
    upstream: upstream.getReader(),
    clientWantsUsage,
    startedAt: Date.now(),
    idleTimeoutMs: 5000,
    drainMs: 1000,
    pingSeconds: 0,
    synthesizeUsage: () => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 }),
    onEnd: (outcome) => {
      ended = { ...outcome, text: outcome.text };
      onEnd?.(outcome);
    },
  });
  return { body: typeof body === "string" ? body : await new Response(body).text(), outcome: ended! };
}
