import type { Usage } from "../../service/billing/quota";
import { streamedUsage, type EndpointKind } from "../../service/relay/endpoints";
import type { ChunkReader } from "../upstream/reply";
import { eventData, SseSplitter } from "./sse";
import { StreamedText } from "./stream-text";
import { endsStream, relayWholeStream, USAGE_MARK } from "./whole-stream";

export type StreamEnd = "done" | "eof" | "timeout" | "client_gone" | "error";

/** What came through a relayed stream: the upstream's usage if it sent one, the text it generated, timings. */
export interface StreamOutcome {
  usage?: Usage;
  text: string;
  /** ms from the start of the call to the first event, -1 when none came. */
  firstResponseMs: number;
  end: StreamEnd;
}

export interface StreamOptions {
  kind: EndpointKind;
  upstream: ChunkReader;
  /** The client asked for usage (stream_options.include_usage); otherwise the usage-only chunk is dropped. */
  clientWantsUsage: boolean;
  startedAt: number;
  /** Longest quiet gap between upstream chunks. */
  idleTimeoutMs: number;
  /** After the client leaves, how long to keep reading for the usage report. */
  drainMs: number;
  pingSeconds: number;
  /** Builds a usage-only chunk when the client wanted usage and the upstream sent none. */
  synthesizeUsage(outcome: StreamOutcome): Usage;
  /** Called exactly once, when the stream is over for both sides. */
  onEnd(outcome: StreamOutcome): void;
}

const encoder = new TextEncoder();

/** The stream's end marker, allowing for stray spaces around it (checked on every event: no copy for the usual ones). */
const isDone = (data: string) => data === "[DONE]" || (data.length < 16 && data.trim() === "[DONE]");

/** Races a read against a timer, and always clears the timer: a stream does thousands of reads. */
async function raceTimer<T, U>(read: Promise<T>, ms: number, outcome: U): Promise<T | U> {
  let timer: Timer | undefined;
  try {
    return await Promise.race([read, new Promise<U>((resolve) => (timer = setTimeout(() => resolve(outcome), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
const PING = encoder.encode(": PING\n\n");
const TIMEOUT: unique symbol = Symbol("timeout");
const PING_DUE: unique symbol = Symbol("ping");
const NOT_YET: unique symbol = Symbol("not yet");
/** Settles after the event loop's current turn: a read that is still pending by then waits on the network. */
const afterThisTurn = () => new Promise<typeof NOT_YET>((resolve) => setImmediate(resolve, NOT_YET));

/**
 * Passes an upstream event stream through event by event (each forwarded as soon as it is whole), while
 * reading the usage report and the generated text for billing. If the client goes away, the upstream is
 * still read, up to `drainMs`, so the call is billed for what was generated; then it is cancelled.
 *
 * What the upstream has already delivered is taken first, without waiting: when that is the whole stream,
 * the reply is one finished body (a streamed reply costs the server far more per call); otherwise the events
 * taken so far open the streamed reply, and the rest follows as it arrives.
 */
export async function relayStream(options: StreamOptions): Promise<string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>> {
  const reader = options.upstream;
  const first = reader.read();
  const arrived = Bun.peek.status(first) === "fulfilled" ? (Bun.peek(first) as Awaited<typeof first>) : undefined;
  const whole = arrived && !arrived.done && endsStream(arrived.value) ? relayWholeStream(arrived.value, options.kind, options.clientWantsUsage) : undefined;
  if (!whole) return relayEvents(options, reader, first);
  reader.cancel().catch(() => {});
  options.onEnd({ usage: whole.usage, text: "", firstResponseMs: Date.now() - options.startedAt, end: "done" });
  return whole.body;
}

/** The event-by-event relay, from the upstream's first read on. */
async function relayEvents(
  options: StreamOptions,
  reader: ChunkReader,
  first: ReturnType<ChunkReader["read"]>,
): Promise<string | ReadableStream<Uint8Array>> {
  const splitter = new SseSplitter();
  const generated = new StreamedText(options.kind);
  const outcome: StreamOutcome = {
    get text() {
      return generated.text;
    },
    firstResponseMs: -1,
    end: "eof",
  };
  let finished = false;
  let pendingRead: ReturnType<typeof reader.read> | null = null;

  const finish = (end: StreamEnd) => {
    if (finished) return;
    finished = true;
    outcome.end = end;
    reader.cancel().catch(() => {});
    options.onEnd(outcome);
  };

  /** Reads the events of one chunk; answers the bytes to forward and whether [DONE] was seen. */
  const take = (events: string[]): { out: string; done: boolean } => {
    let out = "";
    let done = false;
    for (const event of events) {
      const data = eventData(event);
      if (data === undefined) continue;
      if (outcome.firstResponseMs < 0) outcome.firstResponseMs = Date.now() - options.startedAt;
      if (isDone(data)) {
        if (options.clientWantsUsage && !outcome.usage && options.kind !== "responses") {
          const usage = options.synthesizeUsage(outcome);
          out += `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [], usage: usageJson(usage) })}\n\n`;
        }
        out += "data: [DONE]\n\n";
        done = true;
        continue;
      }
      if (!outcome.usage) generated.keep(data);
      if (!USAGE_MARK.test(data)) {
        out += `${event}\n\n`;
        continue;
      }
      let parsed: any;
      try {
        parsed = JSON.parse(data);
      } catch {
        out += `${event}\n\n`;
        continue;
      }
      const usage = streamedUsage(options.kind, parsed);
      if (usage) {
        outcome.usage = usage;
        generated.forget();
      }
      const usageOnly = usage && Array.isArray(parsed.choices) && parsed.choices.length === 0;
      if (usageOnly && !options.clientWantsUsage) continue;
      out += `${event}\n\n`;
    }
    return { out, done };
  };

  const nextRead = (waitMs: number) => {
    pendingRead ??= reader.read();
    const pingMs = options.pingSeconds * 1000;
    const ping = pingMs > 0 && pingMs < waitMs;
    return raceTimer<Awaited<typeof pendingRead>, typeof TIMEOUT | typeof PING_DUE>(pendingRead, ping ? pingMs : waitMs, ping ? PING_DUE : TIMEOUT);
  };

  let early = "";
  try {
    for (let read = first; ; read = reader.read()) {
      const result = Bun.peek.status(read) === "fulfilled" ? (Bun.peek(read) as Awaited<typeof read>) : await Promise.race([read, afterThisTurn()]);
      if (result === NOT_YET) {
        pendingRead = read;
        break;
      }
      if (result.done) {
        early += take(splitter.rest()).out;
        finish("eof");
        return early;
      }
      const { out, done } = take(splitter.push(result.value));
      early += out;
      if (done) {
        finish("done");
        return early;
      }
    }
  } catch {
    finish("error");
    return early;
  }

  let draining = false;
  /** After the client left: keep reading (without forwarding) until usage, the end, or the deadline. */
  const drain = async () => {
    if (draining || finished) return;
    draining = true;
    const deadline = Date.now() + options.drainMs;
    try {
      while (!finished && !outcome.usage) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        const result = await raceTimer(pendingRead ?? reader.read(), left, TIMEOUT);
        pendingRead = null;
        if (result === TIMEOUT || result.done) break;
        if (take(splitter.push(result.value)).done) break;
      }
    } catch {}
    finish("client_gone");
  };
  /** The client has gone; the relay's loop hands the upstream to `drain` (one reader at a time). */
  let gone = false;
  let pulling = false;

  // A direct stream (Bun's): one pull writes the whole relay, each chunk straight to the socket.
  return new ReadableStream<Uint8Array>({
    type: "direct",
    async pull(controller: DirectController) {
      /** Hands bytes to the client; false when the client has gone (then the upstream is drained instead). */
      const send = (bytes: Uint8Array | string): boolean => {
        if (gone) return false;
        try {
          controller.write(bytes);
          controller.flush();
          return true;
        } catch {
          gone = true;
          return false;
        }
      };
      /** The stream's end: billed first (the charge reaches the journal), then its last bytes and the close go out. */
      const end = (how: StreamEnd, out = "") => {
        finish(how);
        if (out) send(out);
        closeQuietly(controller);
      };
      pulling = true;
      try {
        if (early && !send(early)) return;
        for (;;) {
          const result = await nextRead(options.idleTimeoutMs);
          if (result === PING_DUE) {
            if (!send(PING)) return;
            continue;
          }
          if (result === TIMEOUT) {
            if (gone) return;
            return end("timeout");
          }
          pendingRead = null;
          if (result.done) return end(gone ? "client_gone" : "eof", take(splitter.rest()).out);
          const { out, done } = take(splitter.push(result.value));
          if (done) return end(gone ? "client_gone" : "done", out);
          if (out && !send(out)) return;
          if (gone) return;
        }
      } catch {
        end("error");
      } finally {
        pulling = false;
        if (gone) void drain();
      }
    },
    cancel() {
      gone = true;
      if (!pulling) void drain();
    },
  } as unknown as UnderlyingDefaultSource<Uint8Array>);
}

/** The controller of a direct stream: writes go to the response as they are made. */
interface DirectController {
  write(chunk: Uint8Array | string): number | Promise<number>;
  flush(): number | Promise<number>;
  close(): void;
}

function closeQuietly(controller: DirectController): void {
  try {
    controller.close();
  } catch {}
}

export const usageJson = (u: Usage) => ({
  prompt_tokens: u.promptTokens,
  completion_tokens: u.completionTokens,
  total_tokens: u.promptTokens + u.completionTokens,
});
