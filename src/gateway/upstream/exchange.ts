import { keepIdle, type Connection, type ConnectionUser } from "./connections";
import {
  asBuffer,
  joinChunks,
  partOf,
  readAll,
  readerStream,
  type BodySink,
  type PushReader,
  type UpstreamReply,
} from "./reply";
import { TurnBatch } from "../../shared/turn-batch";
import { BadReplyError, ResponseParser } from "./response-parser";

/** A pooled connection the server had dropped while it was idle: the request can go again on a new one. */
export class StaleConnectionError extends Error {}

/**
 * How long an exchange may take: `untilHead` ends the limit when the reply's head arrives (a stream then runs
 * under its own idle limit), else it lasts until the whole body is in.
 */
export interface Deadline {
  ms: number;
  untilHead: boolean;
}

export class UpstreamTimeoutError extends Error {
  override name = "TimeoutError";
}

/** Body bytes held for a slow reader before the connection stops reading (the upstream then waits on TCP). */
const HIGH_WATER = 1024 * 1024;

/** How long a released reply may take to end its body before its connection is closed instead of kept. */
const RELEASE_GRACE_MS = 1000;
/** Where a released reply's last bytes go. */
const DISCARD: BodySink = { bytes() {}, end() {} };

const utf8 = new TextDecoder();
/** What settles the head once it has settled: nothing (an open stream need not keep the promise's functions). */
const HEAD_SETTLED = { resolve() {}, reject() {} };
const DONE: ReadableStreamReadResult<Uint8Array> = { done: true, value: undefined };
/** The deadline timer's callback, one for every exchange (the exchange is its argument: no closure per call). */
const deadlinePassed = (exchange: Exchange) => exchange.timedOut();
const NO_BYTES = new Uint8Array(0);

/**
 * Requests made in one turn of the event loop are written together at its end: under load the upstream is woken
 * once for many of them instead of once each (on one core that wake-up is most of what a send costs). A batch is
 * held at most a TurnBatch's wait: the next request finding it older writes it.
 */
let outgoing: { exchange: Exchange; request: string }[] = [];
const outgoingBatch = new TurnBatch();
function sendOutgoing(): void {
  const batch = outgoing;
  outgoing = [];
  for (const { exchange, request } of batch) exchange.send(request);
}

function queueRequest(exchange: Exchange, request: string): void {
  if (outgoing.length === 0) {
    outgoingBatch.open();
    setImmediate(sendOutgoing);
  }
  outgoing.push({ exchange, request });
  if (outgoingBatch.overdue) sendOutgoing();
}

/**
 * One request and its reply on one connection. The reply's head settles `head`; body bytes queue until they
 * are read. When the body is complete the connection goes back to the pool (or is closed), whether or not the
 * reader has taken the bytes yet.
 */
export class Exchange implements ConnectionUser, UpstreamReply, PushReader {
  status = 0;
  private readonly parser = new ResponseParser();
  /** Body bytes not yet read (made when the first arrive: a pushed stream never queues, and keeps no array). */
  private queue: Uint8Array[] | null = null;
  private queued = 0;
  private ended = false;
  private failure: Error | null = null;
  private paused = false;
  private gotBytes = false;
  private unsent: Uint8Array | null = null;
  private waiting: { resolve(r: ReadableStreamReadResult<Uint8Array>): void; reject(e: Error): void } | null = null;
  private sink: BodySink | null = null;
  /** Settles the promise `head` gave; HEAD_SETTLED once it has (an open stream keeps no promise or functions of it). */
  private settleHead: { resolve(reply: UpstreamReply): void; reject(error: Error): void } = HEAD_SETTLED;
  private readonly onAbort: (() => void) | undefined;
  /** One timer per exchange, cleared when it ends: AbortSignal.timeout's timers outlive the call. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline ends when the head arrives (see Deadline). */
  private readonly untilHead: boolean;

  constructor(
    private readonly socket: Connection,
    request: string,
    private readonly signal?: AbortSignal,
    deadline?: Deadline,
  ) {
    this.untilHead = deadline?.untilHead ?? false;
    if (deadline) this.timer = setTimeout(deadlinePassed, deadline.ms, this);
    this.onAbort = signal && (() => this.fail(signal.reason instanceof Error ? signal.reason : new Error("aborted")));
    if (this.onAbort) signal!.addEventListener("abort", this.onAbort, { once: true });
    socket.data.user = this;
    queueRequest(this, request);
  }

  /** The reply once its head has arrived (asked once, right after the exchange is made: it is not kept here). */
  head(): Promise<UpstreamReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<UpstreamReply>((resolve, reject) => (this.settleHead = { resolve, reject }));
  }

  /** Writes the request (what the socket does not take now goes when it drains). */
  send(request: string): void {
    if (this.ended) return;
    const written = this.socket.write(request);
    if (written < Buffer.byteLength(request)) this.unsent = Buffer.from(request).subarray(Math.max(0, written));
  }

  header(name: string): string | null {
    return this.parser.head?.header(name) ?? null;
  }

  received(chunk: Uint8Array): void {
    this.gotBytes = true;
    let parsed: ReturnType<ResponseParser["push"]>;
    try {
      parsed = this.parser.push(chunk);
    } catch (error) {
      this.fail(error as Error);
      return;
    }
    if (this.sink) {
      this.pushed(parsed.source, parsed.parts, parsed.done);
      // The parser's answer is reused: an idle stream would otherwise hold its last chunk.
      this.parser.forgetBytes();
      return;
    }
    const { source, parts } = parsed;
    for (let i = 0; i < parts.length; i += 2) {
      (this.queue ??= []).push(partOf(source, parts[i]!, parts[i + 1]!));
      this.queued += parts[i + 1]! - parts[i]!;
    }
    this.parser.forgetBytes();
    if (parsed.done) this.finish();
    if (parsed.head) {
      if (this.untilHead) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
      this.status = parsed.head.status;
      this.settleHead.resolve(this);
      this.settleHead = HEAD_SETTLED;
    }
    this.wake();
    if (!this.ended && !this.paused && this.queued > HIGH_WATER) {
      this.paused = true;
      this.socket.pause();
    }
  }

  closed(): void {
    if (this.ended) return;
    if (this.parser.end()) {
      this.ended = true;
      this.detach();
      if (this.sink) this.sink.end();
      else this.wake();
      return;
    }
    const stale = this.socket.data.reused && !this.gotBytes;
    this.fail(
      stale
        ? new StaleConnectionError("the kept-alive connection was closed by the upstream")
        : new BadReplyError("the upstream closed the connection before its reply was complete"),
    );
  }

  failed(error: Error): void {
    this.fail(error);
  }

  /** The deadline passed before the reply's head (or its whole body) came. */
  timedOut(): void {
    this.fail(new UpstreamTimeoutError("the upstream did not answer in time"));
  }

  drained(): void {
    if (!this.unsent) return;
    const written = this.socket.write(this.unsent);
    this.unsent = written < this.unsent.length ? this.unsent.subarray(Math.max(0, written)) : null;
  }

  /** From now on the body goes to `sink` as it arrives, what is queued first; then the end (or the failure). */
  attach(sink: BodySink): void {
    this.sink = sink;
    this.parser.head?.compact();
    this.waiting = null;
    const queued = asBuffer(this.take());
    if (this.failure) sink.end(this.failure);
    else this.pushed(queued, queued.length > 0 ? [0, queued.length] : [], this.ended);
  }

  pause(): void {
    if (this.paused || this.ended) return;
    this.paused = true;
    this.socket.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (!this.ended) this.socket.resume();
  }

  /** Hands body bytes (`parts` of `source`: starts and ends) to the sink, then the end; a sink that cancels the exchange stops the rest. */
  private pushed(source: Buffer, parts: number[], done: boolean): void {
    if (done && !this.ended) this.finish();
    // `this.sink` is read again each time: a sink that releases the reply hands the rest to DISCARD.
    for (let i = 0; i < parts.length; i += 2) {
      if (this.failure) return;
      this.sink!.bytes(source, parts[i]!, parts[i + 1]!);
    }
    if (this.ended && !this.failure) this.sink!.end();
  }

  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    if (this.queued > 0) return Promise.resolve({ done: false, value: this.take() });
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  async cancel(): Promise<void> {
    if (!this.ended) this.fail(new Error("the reply was cancelled"));
  }

  /** The reader wants no more: the body's rest is dropped as it comes, and the connection kept if it ends in time. */
  release(): void {
    if (this.ended) return;
    this.attach(DISCARD);
    if (this.ended) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(new Error("the reply was cancelled")), RELEASE_GRACE_MS);
  }

  bytes(): Promise<Uint8Array> {
    const whole = this.arrived();
    return whole ? Promise.resolve(whole) : readAll(this);
  }

  async text(): Promise<string> {
    return utf8.decode(await this.bytes());
  }

  arrived(): Uint8Array | undefined {
    if (!this.ended || this.failure) return undefined;
    return this.queued > 0 ? this.take() : new Uint8Array(0);
  }

  reader(): PushReader {
    return this;
  }

  stream(): ReadableStream<Uint8Array> {
    return readerStream(this);
  }

  private take(): Uint8Array {
    const value = this.queue ? joinChunks(this.queue) : NO_BYTES;
    this.queue = null;
    this.queued = 0;
    this.resume();
    return value;
  }

  private wake(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    if (this.queued > 0) waiting.resolve({ done: false, value: this.take() });
    else if (this.failure) waiting.reject(this.failure);
    else if (this.ended) waiting.resolve(DONE);
    else return;
    this.waiting = null;
  }

  /**
   * The body is complete: the connection is free for the next request, or closed if the server said so or
   * answered before the whole request was sent (the rest of it would be read as the next request).
   */
  private finish(): void {
    this.ended = true;
    this.detach();
    const head = this.parser.head!;
    if (head.keepAlive && !this.unsent) keepIdle(this.socket, head.header("keep-alive"));
    else this.socket.end();
  }

  private detach(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.socket.data.user = null;
    if (this.onAbort) this.signal!.removeEventListener("abort", this.onAbort);
  }

  private fail(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error;
    this.detach();
    this.socket.terminate();
    this.settleHead.reject(error);
    this.settleHead = HEAD_SETTLED;
    if (this.sink) this.sink.end(error);
    else this.wake();
  }
}
