import { asBuffer } from "./reply";

/** The head of an HTTP/1.1 response. */
export interface ResponseHead {
  status: number;
  /** A header's value by its lower-case name (repeated headers joined by ", "), null when absent. */
  header(name: string): string | null;
  /** Whether the connection may carry another request once this response's body is read. */
  keepAlive: boolean;
  /** Lets go of what only reading headers needs, for a head kept while its body streams (headers can still be read). */
  compact(): void;
}

/** The upstream's reply cannot be used (malformed, cut short, in a coding we cannot read); the message says why, in our words. */
export class BadReplyError extends Error {}

const LF = 10;
const CR = 13;
const HEAD_LIMIT = 64 * 1024;
const HEAD_END = Buffer.from("\r\n\r\n");
/** How the body ends: after content-length bytes, with the last chunk, when the connection closes, or at once. */
type Framing = "length" | "chunked" | "close" | "none";

/** Where a "\r\n\r\n" ends in `bytes` (the index after it), searching from `from`; -1 when absent. */
function headEnd(bytes: Buffer, from: number): number {
  const at = bytes.indexOf(HEAD_END, Math.max(0, from));
  return at < 0 ? -1 : at + 4;
}

/**
 * A header's value in the head's text, found in its lower-cased copy (names are case-insensitive; no space
 * may stand between a name and its colon). Both start each line with CRLF. Repeated headers join with ", ".
 */
function headerIn(text: string, lower: string, name: string): string | null {
  const key = `\r\n${name}:`;
  let value: string | null = null;
  for (let at = lower.indexOf(key); at >= 0; at = lower.indexOf(key, at + key.length)) {
    const end = text.indexOf("\r\n", at + key.length);
    const found = text.slice(at + key.length, end < 0 ? text.length : end).trim();
    value = value === null ? found : `${value}, ${found}`;
  }
  return value;
}

/** A hex digit's value, -1 for any other byte. */
function hexDigit(byte: number): number {
  if (byte >= 48 && byte <= 57) return byte - 48;
  const lower = byte | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * Where the line from `at` ends (its LF), -1 when not in `bytes`. Chunk lines are a few bytes: a loop here costs a
 * fraction of Buffer's `indexOf`, a call into the runtime twice a chunk.
 */
function lineEndIn(bytes: Buffer, at: number): number {
  for (; at < bytes.length; at++) if (bytes[at] === LF) return at;
  return -1;
}

const isSpace = (byte: number) => byte === 32 || (byte >= 9 && byte <= 13);

/**
 * The size on a chunk-size line (`bytes` from `at` to before `end`, its CR already left out): 1–12 hex digits,
 * then only spaces or an extension (`;…`); -1 when malformed. Read from the bytes: no string per chunk.
 */
function chunkSize(bytes: Buffer, at: number, end: number): number {
  let size = 0;
  let digits = 0;
  for (let d: number; at < end && digits < 13 && (d = hexDigit(bytes[at]!)) >= 0; at++, digits++) size = size * 16 + d;
  if (digits === 0 || digits > 12) return -1;
  for (; at < end; at++) {
    if (bytes[at] === 59) return size;
    if (!isSpace(bytes[at]!)) return -1;
  }
  return size;
}

/**
 * A head's text, its headers read by name in a lower-cased copy made when first needed (a class, not a closure: a
 * stream keeps its head while it is open).
 */
class HeadLines implements ResponseHead {
  readonly keepAlive: boolean;
  private lower: string | undefined = undefined;

  constructor(
    readonly status: number,
    http11: boolean,
    private readonly text: string,
  ) {
    const connection = this.header("connection")?.toLowerCase() ?? "";
    this.keepAlive = http11 ? !connection.includes("close") : connection.includes("keep-alive");
  }

  header(name: string): string | null {
    this.lower ??= this.text.toLowerCase();
    return headerIn(this.text, this.lower, name);
  }

  compact(): void {
    this.lower = undefined;
  }
}

/** The head's text from its status line on (header lines start with CRLF, so the status line is never taken for one). */
function parseHead(text: string): ResponseHead {
  const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?(?=\r\n|$)/.exec(text);
  if (!statusLine) throw new BadReplyError("the upstream's reply is not HTTP/1.x");
  return new HeadLines(Number(statusLine[2]), statusLine[1] === "1", text);
}

/**
 * What one pushed chunk of bytes produced: one such object for every parser, valid until the next push of any.
 * Pushes come one at a time from the sockets' data events, and each is read before its handler returns; an open
 * stream's parser keeps no answer of its own.
 */
export interface Parsed {
  /** The head, the first time it is complete. */
  head?: ResponseHead;
  /** The bytes the body's parts are in: the pushed chunk (joined to what was held from the one before). */
  source: Buffer;
  /**
   * The body's parts (chunked framing removed), in order: each a start and an end in `source`. Offsets, not
   * Buffers: a reader that decodes a part spares a Buffer per chunk.
   */
  parts: number[];
  /** The body is complete. */
  done: boolean;
}

const NO_BYTES = Buffer.alloc(0);
const answer: Parsed = { head: undefined, source: NO_BYTES, parts: [], done: false };

/**
 * Reads one HTTP/1.1 response from the bytes of a connection as they arrive: the head (interim 1xx heads are
 * skipped), then the body framed by content-length, chunked transfer coding, or the connection's close.
 */
export class ResponseParser {
  head?: ResponseHead;
  private framing: Framing = "none";
  /** Content-length framing: the body's bytes not yet read. */
  private lengthLeft = 0;
  private pending: Buffer | null = null;
  /** Chunked coding: bytes left in the current chunk's data, or a state between chunks. */
  private chunkLeft = 0;
  private chunkState: "size" | "data" | "data-end" | "trailers" = "size";
  done = false;
  push(chunk: Uint8Array): Parsed {
    const out = answer;
    out.head = undefined;
    out.parts.length = 0;
    out.done = false;
    let bytes = asBuffer(chunk);
    if (this.pending) {
      bytes = Buffer.concat([this.pending, bytes]);
      this.pending = null;
    }
    let at = 0;
    while (!this.head) {
      const end = headEnd(bytes, at);
      if (end < 0) {
        if (bytes.length - at > HEAD_LIMIT) throw new BadReplyError("the upstream's reply head is too large");
        this.pending = bytes.subarray(at);
        return out;
      }
      const head = parseHead(bytes.toString("latin1", at, end - 4));
      at = end;
      if (head.status >= 100 && head.status < 200) continue;
      this.head = out.head = head;
      this.framing = this.framingOf(head);
      if (this.framing === "none") {
        this.done = out.done = true;
        return out;
      }
    }
    out.source = bytes;
    if (at < bytes.length) this.body(bytes, at, out);
    return out;
  }

  /** Lets go of the last push's bytes (the answer is kept for the next push, and holds them until then). */
  forgetBytes(): void {
    answer.parts.length = 0;
    answer.source = NO_BYTES;
  }

  /** How the body the head announces is framed (by content-length: its length, noted in `lengthLeft`). */
  private framingOf(head: ResponseHead): Framing {
    if (head.status === 204 || head.status === 304) return "none";
    if (head.header("transfer-encoding")?.toLowerCase().includes("chunked")) return "chunked";
    const length = head.header("content-length");
    if (length === null) return "close";
    if (!/^\d+$/.test(length)) throw new BadReplyError("the upstream sent an invalid content-length");
    this.lengthLeft = Number(length);
    return this.lengthLeft === 0 ? "none" : "length";
  }

  /** The connection closed: completes a body framed by the close, or answers that the reply was cut short. */
  end(): boolean {
    if (this.done) return true;
    if (this.head && this.framing === "close") return (this.done = true);
    return false;
  }

  /** The body's bytes in `bytes` from `at` on. */
  private body(bytes: Buffer, at: number, out: Parsed): void {
    const framing = this.framing;
    if (this.done) throw new BadReplyError("the upstream sent bytes after its reply");
    if (framing === "close") {
      out.parts.push(at, bytes.length);
      return;
    }
    if (framing === "length") {
      const length = bytes.length - at;
      if (length > this.lengthLeft) throw new BadReplyError("the upstream sent more than its content-length");
      out.parts.push(at, bytes.length);
      this.lengthLeft -= length;
      if (this.lengthLeft === 0) this.done = out.done = true;
      return;
    }
    this.chunked(bytes, at, out);
  }

  private chunked(bytes: Buffer, at: number, out: Parsed): void {
    while (at < bytes.length && !this.done) {
      if (this.chunkState === "data") {
        const take = Math.min(this.chunkLeft, bytes.length - at);
        out.parts.push(at, at + take);
        at += take;
        this.chunkLeft -= take;
        if (this.chunkLeft === 0) this.chunkState = "data-end";
        continue;
      }
      const lineEnd = lineEndIn(bytes, at);
      if (lineEnd < 0) {
        if (bytes.length - at > 4096) throw new BadReplyError("the upstream sent a malformed chunk");
        this.pending = bytes.slice(at);
        return;
      }
      const lineStart = at;
      const contentEnd = lineEnd > at && bytes[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
      at = lineEnd + 1;
      if (this.chunkState === "data-end") {
        if (contentEnd !== lineStart) throw new BadReplyError("the upstream sent a malformed chunk");
        this.chunkState = "size";
      } else if (this.chunkState === "size") {
        const size = chunkSize(bytes, lineStart, contentEnd);
        if (size < 0) throw new BadReplyError("the upstream sent a malformed chunk size");
        this.chunkLeft = size;
        this.chunkState = this.chunkLeft === 0 ? "trailers" : "data";
      } else if (contentEnd === lineStart) {
        this.done = out.done = true;
      }
    }
    if (this.done && at < bytes.length) throw new BadReplyError("the upstream sent bytes after its reply");
  }
}
