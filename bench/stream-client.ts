/**
 * The open-streams bench's client, in its own process: keeps N calls open at once against a target (one
 * keep-alive socket per slot; a slot sends its next call as soon as its last one ends), the slots' first calls
 * spread evenly over --ramp-ms. Streams come from bench/drip-upstream.ts, whose chunks carry their send
 * time: a chunk's added gap is the client's gap since the call's previous chunk less the fake's.
 *
 * Prints "measuring" when the window opens (after the ramp and --warm-ms; with --open-when-told it then prints
 * "warmed" and opens at the first line on its stdin, the bench's word that the server has settled) and "measured"
 * when it closes; the bench reads the server's CPU and RSS between those two lines. Then it drains: it sends no new call
 * and waits up to --drain-ms for every call it started to end, its chunks no longer timed. A call completes with
 * status 200, all --chunks content chunks (when given) and [DONE]; it fails on another status, a connection closed
 * mid-call or a truncated stream; one still open when the drain times out is stalled. Last, one JSON line of figures.
 *
 *   bun bench/stream-client.ts --url U [--key K] --n N [--stream] --ramp-ms R --warm-ms W --measure-ms M --wait-ms F
 *                              [--chunks C] [--drain-ms D] [--prompt-kb P] [--model M] [--header "Name: value" ...]
 *                              [--open-when-told]
 *
 * --prompt-kb makes the user's message P KiB long (an agent's prompt is tens of KiB; the default is "hi").
 * --model names the model asked for (default the bench's model; the bench's Claude model reaches an Anthropic channel).
 * --header adds a request header (a target that routes by headers, such as Portkey's provider and upstream).
 */
import { parseArgs } from "node:util";
import { httpRequest, percentiles } from "./fixed-rate";
import { cpuMicros } from "./proc";
import { callHeaders, chatBody, CHAT_PATH, type BenchCall } from "./relay-calls";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    key: { type: "string" },
    n: { type: "string" },
    stream: { type: "boolean" },
    "ramp-ms": { type: "string" },
    "warm-ms": { type: "string" },
    "measure-ms": { type: "string" },
    "wait-ms": { type: "string" },
    chunks: { type: "string" },
    "drain-ms": { type: "string" },
    "prompt-kb": { type: "string" },
    model: { type: "string" },
    header: { type: "string", multiple: true },
    "open-when-told": { type: "boolean" },
  },
});
const origin = values.url!;
const slots = Number(values.n);
const stream = values.stream ?? false;
const rampMs = Number(values["ramp-ms"] ?? 2000);
const warmMs = Number(values["warm-ms"] ?? 2000);
const measureMs = Number(values["measure-ms"] ?? 8000);
/** The fake's own wait before the first token (stream) or the reply (non-stream), taken off the first byte. */
const waitMs = Number(values["wait-ms"] ?? 0);
/** The content chunks a whole stream carries (0: not checked). */
const chunksPerStream = Number(values.chunks ?? 0);
const drainMs = Number(values["drain-ms"] ?? 0);
const openWhenTold = values["open-when-told"] ?? false;

/** Resolves at the first line on stdin (the bench's word that the server has settled). */
async function toldToOpen(): Promise<void> {
  for await (const bytes of Bun.stdin.stream()) if (bytes.includes(0x0a)) return;
}

const promptBytes = Number(values["prompt-kb"] ?? 0) * 1024;
const call: BenchCall = { name: "drip", path: CHAT_PATH, body: chatBody(stream, promptBytes, values.model) };
const extraHeaders = Object.fromEntries(
  (values.header ?? []).map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
);
const headers = { ...callHeaders(call, values.key ?? ""), ...extraHeaders };
const request = httpRequest(origin, "POST", call.path, call.body, headers);
const { hostname, port } = new URL(origin);

const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");
const EMPTY = Buffer.alloc(0);
const AT = 0x40;
const DONE = Buffer.from("[DONE]");

/** A growable list of doubles. */
class Samples {
  values = new Float64Array(1 << 16);
  count = 0;
  push(v: number) {
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.count++] = v;
  }
}

const gaps = new Samples();
const firstBytes = new Samples();
/**
 * A chunk's latency: its arrival less the fake's wall-clock stamp of its send (both processes' `timeOrigin + now`).
 * The gaps cancel a delay every chunk has; this shows it (a core near saturation queues every chunk).
 */
const latencies = new Samples();
let started = 0;
let completed = 0;
let failed = 0;
let chunksInWindow = 0;
let completedInWindow = 0;
let firstFailure: string | undefined;

const began = performance.now();
/** The warm-up's end; with --open-when-told the window opens at the first line on stdin after it. */
const warmEnd = began + rampMs + warmMs;
let windowStart = openWhenTold ? Number.POSITIVE_INFINITY : warmEnd;
let windowEnd = windowStart + measureMs;
const inWindow = (t: number) => t >= windowStart && t < windowEnd;
/** After the window: no new call, and chunks are only counted. */
let draining = false;
let closing = false;
let busy = 0;
let allEnded = () => {};

interface Slot {
  socket?: Bun.Socket<undefined>;
  busy: boolean;
  sentAt: number;
  firstAt: number;
  prevArrival: number;
  prevSent: number;
  /** Content chunks of this call so far. */
  markers: number;
  /** The call's last two pieces of body, where its [DONE] is. */
  last: Buffer;
  beforeLast: Buffer;
  buf: Buffer;
  head: boolean;
  chunked: boolean;
  status: number;
  remaining: number;
  unsent?: Uint8Array;
}

function ended(slot: Slot) {
  if (slot.busy) busy--;
  slot.busy = false;
  if (draining && !busy) allEnded();
}

/** Where a call still open at the drain's end stood. */
function stallOf(slot: Slot): string {
  return `${slot.head ? "no reply head yet" : `status ${slot.status}`}; ${whereIn(slot)}`;
}

function fail(slot: Slot, why: string) {
  failed++;
  firstFailure ??= slot.busy ? `${why} (${whereIn(slot)})` : why;
  ended(slot);
}

/** How far a call had come: its age, its content chunks, and whether the window had closed. */
function whereIn(slot: Slot): string {
  const age = ((performance.now() - slot.sentAt) / 1000).toFixed(1);
  return `${age} s after it was sent, ${slot.markers} content chunks in, ${draining ? "in the drain" : "before the drain"}`;
}

function send(slot: Slot) {
  if (draining) return;
  started++;
  busy++;
  Object.assign(slot, { busy: true, sentAt: performance.now(), firstAt: 0, prevArrival: 0, prevSent: 0 });
  Object.assign(slot, { markers: 0, last: EMPTY, beforeLast: EMPTY });
  Object.assign(slot, { buf: EMPTY, head: true, chunked: false, status: 0, remaining: 0 });
  const written = slot.socket!.write(request);
  if (written < request.length) slot.unsent = request.subarray(Math.max(0, written));
}

/** The send times the fake wrote into this piece of the body, each against the call's previous chunk. */
function scanMarkers(slot: Slot, data: Buffer, now: number) {
  slot.beforeLast = slot.last;
  slot.last = data;
  if (draining) {
    for (let at = data.indexOf(AT); at >= 0; at = data.indexOf(AT, at + 1)) slot.markers++;
    return;
  }
  for (let at = data.indexOf(AT); at >= 0; at = data.indexOf(AT, at + 1)) {
    slot.markers++;
    let end = at + 1;
    while (end < data.length && data[end] !== 0x20 && data[end] !== 0x22) end++;
    const sent = Number(data.toString("latin1", at + 1, end));
    if (!slot.firstAt) {
      slot.firstAt = now;
      if (inWindow(now)) firstBytes.push(now - slot.sentAt - waitMs);
    } else if (inWindow(now)) {
      gaps.push(now - slot.prevArrival - (sent - slot.prevSent));
    }
    if (inWindow(now)) {
      chunksInWindow++;
      latencies.push(performance.timeOrigin + now - sent);
    }
    slot.prevArrival = now;
    slot.prevSent = sent;
  }
}

/** Why a stream that ended is not whole, or undefined. */
function truncation(slot: Slot): string | undefined {
  if (!slot.markers) return "a stream without a content chunk";
  if (chunksPerStream && slot.markers !== chunksPerStream)
    return `truncated: ${slot.markers} of ${chunksPerStream} content chunks`;
  const end = slot.beforeLast.length ? Buffer.concat([slot.beforeLast, slot.last]) : slot.last;
  if (end.indexOf(DONE) < 0) return "truncated: no [DONE]";
}

/** A reply that ended on its connection: counted, and the slot's next call sent on it. */
function complete(slot: Slot, now: number, body: Buffer) {
  const why =
    slot.status !== 200 ? `${slot.status}: ${body.toString("utf8", 0, 200)}` : stream ? truncation(slot) : undefined;
  if (why) fail(slot, why);
  else {
    completed++;
    if (inWindow(now)) {
      completedInWindow++;
      if (!stream) firstBytes.push(now - slot.sentAt - waitMs);
    }
    ended(slot);
  }
  send(slot);
}

/** Consumes what arrived (HTTP/1.1, Content-Length or chunked); returns when it needs more bytes. */
function parse(slot: Slot, now: number) {
  while (slot.busy) {
    if (slot.head) {
      const end = slot.buf.indexOf(HEAD_END);
      if (end < 0) return;
      const head = slot.buf.toString("latin1", 0, end);
      slot.status = Number(head.slice(9, 12));
      slot.buf = slot.buf.subarray(end + 4);
      slot.head = false;
      slot.chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
      if (!slot.chunked) slot.remaining = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    }
    if (!slot.chunked) {
      if (slot.buf.length < slot.remaining) return;
      const body = slot.buf.subarray(0, slot.remaining);
      slot.buf = slot.buf.subarray(slot.remaining);
      if (stream) scanMarkers(slot, body, now);
      complete(slot, now, body);
      continue;
    }
    const lineEnd = slot.buf.indexOf(CRLF);
    if (lineEnd < 0) return;
    const size = parseInt(slot.buf.toString("latin1", 0, lineEnd), 16);
    const need = lineEnd + 2 + size + 2;
    if (slot.buf.length < need) return;
    const data = slot.buf.subarray(lineEnd + 2, lineEnd + 2 + size);
    slot.buf = slot.buf.subarray(need);
    if (size === 0) complete(slot, now, data);
    else if (slot.status !== 200) firstFailure ??= `${slot.status}: ${data.toString("utf8", 0, 200)}`;
    else if (stream) scanMarkers(slot, data, now);
  }
}

function open(slot: Slot) {
  Bun.connect({
    hostname,
    port: Number(port),
    socket: {
      open(socket) {
        slot.socket = socket;
        send(slot);
      },
      data(_socket, chunk) {
        const now = performance.now();
        slot.buf = slot.buf.length ? Buffer.concat([slot.buf, chunk]) : chunk;
        parse(slot, now);
      },
      drain(socket) {
        if (!slot.unsent) return;
        const written = socket.write(slot.unsent);
        slot.unsent = written < slot.unsent.length ? slot.unsent.subarray(Math.max(0, written)) : undefined;
      },
      close() {
        if (closing) return;
        if (slot.busy) fail(slot, "connection closed mid-call");
        if (!draining) setTimeout(() => open(slot), 10);
      },
      connectError() {
        if (closing || draining) return;
        started++;
        fail(slot, "connect failed");
        setTimeout(() => open(slot), 100);
      },
      error() {},
    },
  }).catch(() => {});
}

const all: Slot[] = [];
for (let i = 0; i < slots; i++) {
  const slot: Slot = {
    busy: false,
    sentAt: 0,
    firstAt: 0,
    prevArrival: 0,
    prevSent: 0,
    markers: 0,
    last: EMPTY,
    beforeLast: EMPTY,
    buf: EMPTY,
    head: true,
    chunked: false,
    status: 0,
    remaining: 0,
  };
  all.push(slot);
  setTimeout(() => open(slot), (i * rampMs) / slots);
}

await Bun.sleep(warmEnd - performance.now());
if (openWhenTold) {
  console.log("warmed");
  await toldToOpen();
}
windowStart = performance.now();
windowEnd = windowStart + measureMs;
console.log("measuring");
const cpuAtStart = cpuMicros(process.pid);
await Bun.sleep(measureMs);
const cpuInWindow = cpuMicros(process.pid) - cpuAtStart;
console.log("measured");
const openAtEnd = busy;
draining = true;
const drainStart = performance.now();
const drained = new Promise<void>((resolve) => {
  allEnded = resolve;
});
if (openAtEnd) await Promise.race([drained, Bun.sleep(drainMs)]);
const drainTook = performance.now() - drainStart;
closing = true;
const stuck = all.filter((s) => s.busy);
const firstStall = stuck[0] && stallOf(stuck[0]);
for (const slot of all) slot.socket?.terminate();
const gap = percentiles(gaps.values, gaps.count);
const first = percentiles(firstBytes.values, firstBytes.count);
const latency = percentiles(latencies.values, latencies.count);
console.log(
  JSON.stringify({
    started,
    completed,
    failed,
    stalled: stuck.length,
    completedInWindow,
    chunksInWindow,
    openAtEnd,
    drainMs: drainTook,
    cpuInWindow,
    gapP50: gap.p50,
    gapP99: gap.p99,
    firstP50: first.p50,
    firstP99: first.p99,
    latencyP50: latency.p50,
    latencyP99: latency.p99,
    firstFailure,
    firstStall,
  }),
);
process.exit(0);
