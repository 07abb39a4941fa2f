import { asBuffer, canPush, letGo, type BodySink, type ChunkReader, type PushReader } from "../upstream/reply";
import { closeQuietly, directStream, type DirectController, type DirectSource } from "./direct-stream";
import type { StreamEnd, StreamOptions } from "./stream-outcome";
import { StreamEvents } from "./stream-events";
import { afterThisTurn, NOT_YET, raceTimer, settledValue } from "./timed-read";

type Read = ReturnType<ChunkReader["read"]>;

const PING = new TextEncoder().encode(": PING\n\n");
const TIMEOUT: unique symbol = Symbol("timeout");
const ignore = () => {};
/** The quiet-gap timer's callback, one for every stream (the relay is the timer's argument). */
const quietGap = (relay: EventRelay) => relay.quiet();

/**
 * One stream passed through event by event (each forwarded as soon as it is whole, read by StreamEvents for the
 * client and for billing). What the upstream has already delivered opens the reply; the rest is
 * written to the client as it arrives, with pings through quiet gaps and a timeout past `idleTimeoutMs`. If the
 * client goes away, the upstream is still read, up to `drainMs`, so the call is billed for what was generated.
 * Billing comes first at the end: the charge is settled before the stream's last bytes go out, so a charge that
 * cannot be recorded leaves the client without [DONE].
 *
 * An upstream that can push its body (the upstream client's reply) is not read but attached to: each chunk is
 * written to the client in the turn its bytes arrive (see `bytes`), and a client that cannot keep up pauses the
 * upstream until its writes drain. Other upstreams (translated streams, fetched replies) are read chunk by chunk.
 */
export class EventRelay implements BodySink, DirectSource {
  /** The client's stream is a direct stream with this relay as its source. */
  readonly type = "direct";
  private readonly events: StreamEvents;
  private readonly reader: ChunkReader;
  /** A read handed on from one step to the next (the early phase to the stream, the stream to the drain). */
  private pendingRead: Read | null = null;
  private finished = false;
  /** The client has gone; the stream's loop hands the upstream to `drain` (one reader at a time). */
  private gone = false;
  private pulling = false;
  private draining = false;
  private controller?: DirectController;
  /** Fires after a quiet gap of the upstream (see `quiet`), at the earliest: a chunk since moves the gap's start. */
  private quietTimer?: Timer;
  /** When the current quiet gap started (`performance.now()`): the timer's arming or the last chunk. */
  private quietSince = 0;
  /** A quiet gap took the stream from the pull: the pull's read, when it settles, is no longer the pull's. */
  private handedOff = false;
  /** What the upstream had delivered before the reply opened: the first bytes the client's stream writes. */
  private early = "";
  /** The upstream that pushes its body to this relay (see `pushFrom`), else undefined. */
  private pusher?: PushReader;
  /** Settles when the client's connection has taken the writes it held back (the upstream is paused till then). */
  private drained?: Promise<void>;

  constructor(private readonly options: StreamOptions) {
    this.reader = options.upstream;
    this.events = new StreamEvents(options);
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
        const out = this.events.take(result);
        if (result.done || this.events.sawDone) {
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

  /** The stream is over for both sides: the upstream is let go and the call billed, once. */
  private finish(end: StreamEnd): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.quietTimer);
    this.events.outcome.end = end;
    if (end === "done") letGo(this.reader);
    else this.reader.cancel().catch(ignore);
    this.options.onEnd(this.events.outcome);
  }

  /** The one pull of the client's stream: the upstream is attached to when it pushes, else read. */
  pull(controller: DirectController): void | Promise<void> {
    this.controller = controller;
    if (canPush(this.reader)) this.pushFrom(this.reader);
    else return this.readAll();
  }

  /**
   * Writes `early`, then each chunk as it is read, until the end. It waits on the read alone; quiet gaps are the
   * stream's one timer's business (see `quiet`): a timer and a race per chunk cost thousands of open streams
   * garbage and CPU.
   */
  private async readAll(): Promise<void> {
    this.pulling = true;
    try {
      const early = this.early;
      this.early = "";
      if (early && !this.send(early)) return;
      this.armQuiet();
      for (;;) {
        const result = await (this.pendingRead ??= this.reader.read());
        if (this.handedOff) return;
        this.pendingRead = null;
        this.quietSince = performance.now();
        const out = this.events.take(result);
        if (result.done || this.events.sawDone)
          return this.closeWith(this.gone ? "client_gone" : result.done ? "eof" : "done", out);
        if (out && !this.send(out)) return;
        if (this.gone) return;
        if (this.drained) await this.drained;
      }
    } catch {
      if (!this.handedOff) this.closeWith("error", "");
    } finally {
      clearTimeout(this.quietTimer);
      this.pulling = false;
      if (this.gone) void this.drain();
    }
  }

  /**
   * Writes `early`, takes what the upstream delivered since, and attaches to the upstream for the rest (see
   * `bytes` and `end`). The pull returns at once: a direct stream stays open until it is closed, and a pending
   * pull would cost each open stream a promise.
   */
  private pushFrom(upstream: PushReader): void {
    this.pusher = upstream;
    const delivered = this.pendingRead && settledValue(this.pendingRead);
    this.pendingRead = null;
    const early = this.early;
    this.early = "";
    if (early && !this.send(early)) this.drainPushed();
    else this.armQuiet();
    if (delivered && !delivered.done) this.bytes(asBuffer(delivered.value), 0, delivered.value.length);
    if (!this.finished) upstream.attach(this);
  }

  /** Body bytes the upstream pushed, in the turn they arrived: their events go to the client (or only to billing, once it left). */
  bytes(source: Buffer, start: number, end: number): void {
    if (this.finished) return;
    try {
      this.pushed(this.events.takeChunk(source, start, end));
    } catch {
      this.closeWith("error", "");
    }
  }

  /** Whole events a mapped upstream pushed as text, in the turn they arrived: taken as `bytes` takes bytes. */
  text(events: string): void {
    if (this.finished) return;
    try {
      this.pushed(this.events.takeText(events));
    } catch {
      this.closeWith("error", "");
    }
  }

  /** What the events pushed give the client (or only billing, once it left). */
  private pushed(out: string | Uint8Array): void {
    if (this.gone) {
      if (this.events.sawDone || this.events.outcome.usage) this.finish("client_gone");
      return;
    }
    this.quietSince = performance.now();
    if (this.events.sawDone) void this.closeWith("done", out);
    else if (out.length > 0 && !this.send(out)) this.drainPushed();
  }

  /** The pushed body ended, whole or cut short (`error`). */
  end(error?: Error): void {
    if (this.finished) return;
    if (this.gone) {
      this.finish("client_gone");
      return;
    }
    try {
      if (error) this.closeWith("error", "");
      else void this.closeWith("eof", this.events.takeRest());
    } catch {
      this.closeWith("error", "");
    }
  }

  /**
   * Starts a quiet gap: its timer fires after the gap's length (see `quietMs`), and finds out then whether a chunk
   * came since. Chunks only note their time: a timer moved by every chunk cost more than one armed again per gap.
   */
  private armQuiet(): void {
    this.quietSince = performance.now();
    this.quietTimer = setTimeout(quietGap, this.quietMs(), this);
  }

  /** A quiet gap's length: pings' interval when they are due sooner than the idle limit, else the limit. */
  private quietMs(): number {
    return this.pings() ? this.options.pingSeconds * 1000 : this.options.idleTimeoutMs;
  }

  private pings(): boolean {
    const pingMs = this.options.pingSeconds * 1000;
    return pingMs > 0 && pingMs < this.options.idleTimeoutMs;
  }

  /**
   * The upstream was quiet for a whole interval: a ping goes out (and the timer starts over), or the stream times
   * out. A client found gone, or the timeout, takes the stream from the pull (which returns when its read
   * settles): the upstream is drained, or the stream closed. Quiet while the client's writes have not drained is
   * the relay's own pause, not the upstream's. A chunk that came since the gap started makes the gap start there:
   * the timer is armed again for the rest of it.
   */
  quiet(): void {
    const left = this.quietSince + this.quietMs() - performance.now();
    if (left >= 1) {
      this.quietTimer = setTimeout(quietGap, left, this);
      return;
    }
    const ping = this.pings();
    if (this.drained || (ping && this.send(PING))) {
      this.armQuiet();
      return;
    }
    if (this.pusher) {
      if (ping || this.gone) this.drainPushed();
      else void this.closeWith("timeout", "");
      return;
    }
    this.handedOff = true;
    if (ping || this.gone) void this.drain();
    else this.closeWith("timeout", "");
  }

  /** The client's stream was cancelled: the upstream is drained, now or when the pull lets it go. */
  cancel(): void {
    this.gone = true;
    if (this.pusher) this.drainPushed();
    else if (!this.pulling) void this.drain();
  }

  /**
   * Hands bytes to the client; false when the client has gone (then the upstream is drained instead). A write the
   * client's connection cannot take yet pauses a pushing upstream (and a pulling loop) until it drains.
   */
  private send(bytes: Uint8Array | string): boolean {
    if (this.gone) return false;
    try {
      const written = this.controller!.write(bytes);
      const flushed = this.controller!.flush();
      if (written instanceof Promise) this.backUp(written);
      else if (flushed instanceof Promise) this.backUp(flushed);
      return true;
    } catch {
      this.gone = true;
      return false;
    }
  }

  /** Waits on a write the client's connection has not taken: the upstream is paused until the last such one settles. */
  private backUp(pending: Promise<number>): void {
    this.pusher?.pause();
    const drained: Promise<void> = pending.then(ignore, ignore).then(() => {
      if (this.drained !== drained) return;
      this.drained = undefined;
      this.pusher?.resume();
    });
    this.drained = drained;
  }

  /** The client's stream ends: billed first (the charge reaches the journal), then its last bytes and the close go out. */
  private closeWith(how: StreamEnd, lastBytes: string | Uint8Array): void | Promise<void> {
    this.finish(how);
    const durable = this.options.durable?.();
    if (!durable) return this.sendLast(lastBytes);
    return durable.then(
      () => this.sendLast(lastBytes),
      () => this.sendLast(""),
    );
  }

  private sendLast(lastBytes: string | Uint8Array): void {
    if (lastBytes.length > 0) this.send(lastBytes);
    closeQuietly(this.controller!);
  }

  /** After the client left a pushed stream: its events are still taken, until usage, the end, or `drainMs`. */
  private drainPushed(): void {
    if (this.draining || this.finished) return;
    this.draining = true;
    this.gone = true;
    clearTimeout(this.quietTimer);
    if (this.events.outcome.usage) {
      this.finish("client_gone");
      return;
    }
    this.drained = undefined;
    this.pusher!.resume();
    this.quietTimer = setTimeout(() => this.finish("client_gone"), this.options.drainMs);
  }

  /** After the client left: keep reading (without forwarding) until usage, the end, or the deadline. */
  private async drain(): Promise<void> {
    if (this.draining || this.finished) return;
    this.draining = true;
    const deadline = Date.now() + this.options.drainMs;
    try {
      while (!this.finished && !this.events.outcome.usage) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        const result = await raceTimer(this.pendingRead ?? this.reader.read(), left, TIMEOUT);
        this.pendingRead = null;
        if (result === TIMEOUT || result.done) break;
        this.events.take(result);
        if (this.events.sawDone) break;
      }
    } catch {}
    this.finish("client_gone");
  }
}
