import type * as Zlib from "node:zlib";
import type { UpstreamGate } from "../../service/egress/gate";
import { processGate } from "../../service/egress/site-gate";
import { connect, takeIdle, type Connection, type Origin } from "./connections";
import { Exchange, StaleConnectionError, type Deadline } from "./exchange";
import { wholeReply, type UpstreamReply } from "./reply";
import { BadReplyError } from "./response-parser";

interface Target {
  origin: Origin;
  /** The request line's target: path and query. */
  path: string;
  /** The Host header. */
  host: string;
}

/** A request the client will not send as given (its message names what is wrong, never a value). */
export class UnsendableRequestError extends Error {}

const targets = new Map<string, Target>();
const TARGETS_KEPT = 1000;
/** Headers the client sets itself (or that do not belong in a request it frames). */
const OWN_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
]);
/** A line break (or NUL) in a header would let a value add lines of its own to the request. */
const breaksLine = (text: string) => text.includes("\n") || text.includes("\r") || text.includes("\0");

function targetOf(url: string): Target {
  let target = targets.get(url);
  if (target) return target;
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new UnsendableRequestError(`unsupported upstream protocol ${parsed.protocol}`);
  const tls = parsed.protocol === "https:";
  const port = Number(parsed.port) || (tls ? 443 : 80);
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  target = {
    origin: { key: `${parsed.protocol}//${parsed.host}`, hostname, port, tls },
    path: parsed.pathname + parsed.search,
    host: parsed.host,
  };
  if (targets.size >= TARGETS_KEPT) targets.clear();
  targets.set(url, target);
  return target;
}

/**
 * The request's head, up to the blank line that ends it (the body follows as it is). Its lines are joined into one
 * flat string: built with `+=` it was a string of ~30 pieces, which a call waiting for its first token keeps (for a
 * retry on a new connection) and every collection marks.
 */
function requestHead(target: Target, headers: Record<string, string>, body: string): string {
  const lines = [`POST ${target.path} HTTP/1.1`, `host: ${target.host}`];
  let agent = false;
  let encoding = false;
  for (const name in headers) {
    const value = headers[name]!;
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower)) continue;
    if (breaksLine(name) || breaksLine(value))
      throw new UnsendableRequestError(`the request header ${JSON.stringify(name)} holds a line break`);
    if (lower === "user-agent") agent = true;
    if (lower === "accept-encoding") encoding = true;
    lines.push(`${name}: ${value}`);
  }
  if (!agent) lines.push("user-agent: Tollgate");
  if (!encoding) lines.push("accept-encoding: identity");
  lines.push(`content-length: ${Buffer.byteLength(body)}`, "", "");
  return lines.join("\r\n");
}

/** node:zlib, loaded by the first encoded reply: requests ask for identity, and the module is ~5 000 objects. */
const zlib = (): typeof Zlib => require("node:zlib");
const DECODERS: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  gzip: (b) => zlib().gunzipSync(b),
  "x-gzip": (b) => zlib().gunzipSync(b),
  deflate: (b) => zlib().inflateSync(b),
  br: (b) => zlib().brotliDecompressSync(b),
};

/** A reply in a content coding the client did not ask for, read whole and decoded (streaming is lost for it). */
async function decoded(reply: UpstreamReply, coding: string): Promise<UpstreamReply> {
  const decode = DECODERS[coding];
  if (!decode) throw new BadReplyError(`the upstream answered in an unsupported content coding (${coding})`);
  const body = decode(await reply.bytes());
  return wholeReply(
    reply.status,
    (name) => (name === "content-encoding" || name === "content-length" ? null : reply.header(name)),
    body,
  );
}

/** A new connection, given up (and closed once open) when the signal fires first. */
function connectUnlessAborted(origin: Origin, gate: UpstreamGate, signal?: AbortSignal): Promise<Connection> {
  const opening = connect(origin, undefined, gate);
  if (!signal) return opening;
  return new Promise<Connection>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    opening.then(
      (socket) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) socket.terminate();
        else resolve(socket);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * POSTs a body over HTTP/1.1 on a kept-alive connection of this process's pool (a new one when none is idle),
 * and answers once the reply's head has arrived; the body follows through the reply. A pooled connection the
 * server dropped while idle (closed before any byte of the reply) is replaced once by a new one. New connections
 * go to the address `gate` allows for the host (a RefusedAddressError when none).
 */
export async function postUpstream(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal?: AbortSignal,
  gate: UpstreamGate = processGate,
  deadline?: Deadline,
): Promise<UpstreamReply> {
  const target = targetOf(url);
  const head = requestHead(target, headers, body);
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const pooled = attempt === 0 ? takeIdle(target.origin, gate) : undefined;
    const socket = pooled ?? (await connectUnlessAborted(target.origin, gate, signal));
    try {
      // The request's text is made for each connection and not kept while the reply is awaited: it copies the body.
      const reply = await new Exchange(socket, head + body, signal, deadline).head();
      const coding = reply.header("content-encoding")?.toLowerCase();
      return coding && coding !== "identity" ? await decoded(reply, coding) : reply;
    } catch (error) {
      if (pooled && error instanceof StaleConnectionError) continue;
      throw error;
    }
  }
}
