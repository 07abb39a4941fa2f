import type { Usage } from "../../service/billing/quota";
import { streamedUsage } from "../../service/relay/endpoints";
import type { ChunkReader } from "../upstream/reply";
import { closeQuietly, directStream, type DirectController } from "./direct-stream";
import { eventData, SseSplitter } from "./sse";
import type { StreamEnd, StreamOptions, StreamOutcome } from "./stream-outcome";
import { StreamedText } from "./stream-text";
import { afterThisTurn, NOT_YET, raceTimer, settledValue } from "./timed-read";
import { USAGE_MARK } from "./whole-stream";

type Read = ReturnType<ChunkReader["read"]>;
type ReadResult = Awaited<Read>;

const PING = new TextEncoder().encode(": PING\n\n");
const TIMEOUT: unique symbol = Symbol("timeout");
const PING_DUE: unique symbol = Symbol("ping");
const DONE_EVENT = "data: [DONE]\n\n";
const ignore = () => {};

/** The stream's end marker, allowing for stray spaces around it (checked on every event: no copy for the usual ones). */
const isDone = (data: string) => data === "[DONE]" || (data.length < 16 && data.trim() === "[DONE]");

/** What billing is handed: the text is put together only when asked for (only a stream without usage needs it). */
class RelayOutcome implements StreamOutcome {
  usage?: Usage;
  firstResponseMs = -1;
  end: StreamEnd = "eof";

  constructor(private readonly generated: StreamedText) {}

  get text(): string {
    return this.generated.text;
  }
}

/**
 * One stream passed through event by event (each forwarded as soon as it is whole), while its usage report and
 * generated text are kept for billing. What the upstream has already delivered opens the reply; the rest is
 * written to the client as it arrives, with pings through quiet gaps and a timeout past `idleTimeoutMs`. If the
 * client goes away, the upstream is still read, up to `drainMs`, so the call is billed for what was generated.
 * Billing comes first at the end: the charge is settled before the stream's last bytes go out, so a charge that
 * cannot be recorded leaves the client without [DONE].
 */
export class EventRelay {
  private readonly splitter = new SseSplitter();
  private readonly generated: StreamedText;
  private readonly outcome: RelayOutcome;
  private readonly reader: ChunkReader;
  /** A read handed on from one step to the next (the early phase to the stream, the stream to the drain). */
  private pendingRead: Read | null = null;
  /** Whether the events `take` last read held the stream's end marker. */
  private sawDone = false;
  private finished = false;
  /** The client has gone; the stream's loop hands the upstream to `drain` (one reader at a time). */
  private gone = false;
  private pulling = false;
  private draining = false;
  private controller?: DirectController;
  /** What the upstream had delivered before the reply opened: the first bytes the client's stream writes. */
  private early = "";

  constructor(private readonly options: StreamOptions) {
    this.reader = options.upstream;
    this.generated = new StreamedText(options.kind);
    this.outcome = new RelayOutcome(this.generated);
  }

  /**
   * Takes what the upstream has already delivered, from its `first` read on, without waiting on the network: the
   * finished reply when that was the whole stream, else a stream that opens with it and relays the rest.
   */
  async start(first: Read): Promise<string | ReadableStream<Uint8Array>> {
    try {
      for (let read = first; ; read = this.reader.read()) {
        const result = settledValue(read) ?? (await Promise.race([read, afterThisTurn()]));
        if (result === NOT_YET) {
          this.pendingRead = read;
          return directStream(this);
        }
        const out = this.takeChunk(result);
        if (result.done || this.sawDone) {
          this.finish(result.done ? "eof" : "done");
          return this.early + out;
        }
        this.early += out;
      }
    } catch {
      this.finish("error");
      return this.early;
    }
  }

  /** The bytes to forward for one read: its whole events (what remains buffered, at the end). Sets `sawDone`. */
  private takeChunk(result: ReadResult): string {
    return this.take(result.done ? this.splitter.rest() : this.splitter.push(result.value));
  }

  /** The bytes to forward for whole events; sets `sawDone` when one was the stream's end marker. */
  private take(events: string[]): string {
    this.sawDone = false;
    let out = "";
    for (const event of events) out += this.takeEvent(event);
    return out;
  }

  /** One event: noted for billing, and answered as the bytes the client gets for it. */
  private takeEvent(event: string): string {
    const data = eventData(event);
    if (data === undefined) return "";
    const { outcome } = this;
    if (outcome.firstResponseMs < 0) outcome.firstResponseMs = Date.now() - this.options.startedAt;
    if (isDone(data)) {
      this.sawDone = true;
      return this.endMarker();
    }
    if (!outcome.usage) this.generated.keep(data);
    return USAGE_MARK.test(data) ? this.takeUsage(event, data) : `${event}\n\n`;
  }

  /** An event that may carry the upstream's usage report: kept for billing; a usage-only chunk the client did not ask for is dropped. */
  private takeUsage(event: string, data: string): string {
    let parsed: any;
    try {
      parsed = JSON.parse(data);
    } catch {
      return `${event}\n\n`;
    }
    const usage = streamedUsage(this.options.kind, parsed);
    if (!usage) return `${event}\n\n`;
    this.outcome.usage = usage;
    this.generated.forget();
    const usageOnly = Array.isArray(parsed.choices) && parsed.choices.length === 0;
    return usageOnly && !this.options.clientWantsUsage ? "" : `${event}\n\n`;
  }

  /** [DONE], preceded by a counted usage chunk when the client asked for usage and the upstream sent none. */
  private endMarker(): string {
    const { options, outcome } = this;
    if (!options.clientWantsUsage || outcome.usage || options.kind === "responses") return DONE_EVENT;
    const usage = usageJson(options.synthesizeUsage(outcome));
    return `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [], usage })}\n\n${DONE_EVENT}`;
  }

  /** The stream is over for both sides: the upstream is let go and the call billed, once. */
  private finish(end: StreamEnd): void {
    if (this.finished) return;
    this.finished = true;
    this.outcome.end = end;
    this.reader.cancel().catch(ignore);
    this.options.onEnd(this.outcome);
  }

  /** The next read (the one handed on, if any), raced against the ping interval when shorter than `waitMs`. */
  private nextRead(waitMs: number): Promise<ReadResult | typeof TIMEOUT | typeof PING_DUE> {
    this.pendingRead ??= this.reader.read();
    const pingMs = this.options.pingSeconds * 1000;
    const ping = pingMs > 0 && pingMs < waitMs;
    return raceTimer<ReadResult, typeof TIMEOUT | typeof PING_DUE>(this.pendingRead, ping ? pingMs : waitMs, ping ? PING_DUE : TIMEOUT);
  }

  /** The one pull of the client's stream: writes `early`, then each chunk as it arrives, until the end. */
  async pull(controller: DirectController): Promise<void> {
    this.controller = controller;
    this.pulling = true;
    try {
      const early = this.early;
      this.early = "";
      if (early && !this.send(early)) return;
      for (;;) {
        const result = await this.nextRead(this.options.idleTimeoutMs);
        if (result === PING_DUE) {
          if (!this.send(PING)) return;
          continue;
        }
        if (result === TIMEOUT) {
          if (!this.gone) this.end("timeout", "");
          return;
        }
        this.pendingRead = null;
        const out = this.takeChunk(result);
        if (result.done || this.sawDone) return this.end(this.gone ? "client_gone" : result.done ? "eof" : "done", out);
        if (out && !this.send(out)) return;
        if (this.gone) return;
      }
    } catch {
      this.end("error", "");
    } finally {
      this.pulling = false;
      if (this.gone) void this.drain();
    }
  }

  /** The client's stream was cancelled: the upstream is drained, now or when the pull lets it go. */
  cancel(): void {
    this.gone = true;
    if (!this.pulling) void this.drain();
  }

  /** Hands bytes to the client; false when the client has gone (then the upstream is drained instead). */
  private send(bytes: Uint8Array | string): boolean {
    if (this.gone) return false;
    try {
      this.controller!.write(bytes);
      this.controller!.flush();
      return true;
    } catch {
      this.gone = true;
      return false;
    }
  }

  /** The stream's end: billed first (the charge reaches the journal), then its last bytes and the close go out. */
  private end(how: StreamEnd, out: string): void {
    this.finish(how);
    if (out) this.send(out);
    closeQuietly(this.controller!);
  }

  /** After the client left: keep reading (without forwarding) until usage, the end, or the deadline. */
  private async drain(): Promise<void> {
    if (this.draining || this.finished) return;
    this.draining = true;
    const deadline = Date.now() + this.options.drainMs;
    try {
      while (!this.finished && !this.outcome.usage) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        const result = await raceTimer(this.pendingRead ?? this.reader.read(), left, TIMEOUT);
        this.pendingRead = null;
        if (result === TIMEOUT || result.done) break;
        this.take(this.splitter.push(result.value));
        if (this.sawDone) break;
      }
    } catch {}
    this.finish("client_gone");
  }
}

export const usageJson = (u: Usage) => ({
  prompt_tokens: u.promptTokens,
  completion_tokens: u.completionTokens,
  total_tokens: u.promptTokens + u.completionTokens,
});
