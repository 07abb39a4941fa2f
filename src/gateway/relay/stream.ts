import { letGo } from "../upstream/reply";
import type { StreamOptions } from "./stream-outcome";
import { EventRelay } from "./event-relay";
import { settledValue } from "./timed-read";
import { wholeStreamIn } from "./whole-stream";

export type { StreamEnd, StreamOptions, StreamOutcome } from "./stream-outcome";

/**
 * Passes an upstream event stream through event by event (see EventRelay), while reading the usage report and
 * the generated text for billing.
 *
 * What the upstream has already delivered is taken first, without waiting: when that is the whole stream, the
 * reply is one finished body (a streamed reply costs the server far more per call); otherwise the events taken
 * so far open the streamed reply, and the rest follows as it arrives.
 */
export async function relayStream(
  options: StreamOptions,
): Promise<string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>> {
  const reader = options.upstream;
  const first = reader.read();
  const arrived = settledValue(first);
  const whole =
    arrived && !arrived.done ? wholeStreamIn(arrived.value, options.kind, options.clientWantsUsage) : undefined;
  if (!whole) return new EventRelay(options).start(first);
  letGo(reader);
  options.onEnd({ usage: whole.usage, text: "", firstResponseMs: Date.now() - options.startedAt, end: "done" });
  return whole.body;
}
