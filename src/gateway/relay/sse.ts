import { isUtf8 } from "node:buffer";
import { CR, DATA_LINE, LF, startsAt } from "./sse-bytes";

const STREAMING = { stream: true };
/**
 * Decodes a chunk alone when the stream's decoder holds nothing and the chunk ends on a whole character (cheaper
 * than a streaming decode). It keeps a byte order mark: only the stream's first decode drops one.
 */
const WHOLE = new TextDecoder("utf-8", { ignoreBOM: true });
const REPLACEMENT = "\uFFFD";

/**
 * Bytes that end on a whole character, decoded alone. A Buffer's range is decoded in place: a view or a copy of a
 * socket's small chunk costs more than the decoding (Bun 1.4.5, a 200-byte part: ~0.15 µs, a copy decoded ~0.3).
 */
function decodedWhole(chunk: Uint8Array, start: number, end: number): string {
  if (Buffer.isBuffer(chunk)) return chunk.toString("utf8", start, end);
  return WHOLE.decode(partIn(chunk, start, end));
}

const partIn = (chunk: Uint8Array, start: number, end: number) =>
  start === 0 && end === chunk.length ? chunk : chunk.subarray(start, end);

/** The longest event an upstream may send, in characters: a stream that buffers more without an event end is refused. */
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/**
 * Splits a byte stream of server-sent events into whole events ("…\n\n"), keeping partial ones buffered.
 * CRLF and lone CR line ends become LF; a CR ending a chunk is read as a line end at once, and an LF opening
 * the next chunk is taken as its pair, so a CRLF cut between two chunks stays one line end (one event stays one).
 */
export class SseSplitter {
  private buffer = "";
  /**
   * Made when a chunk needs it (one that opens with a byte order mark's first byte, or ends in a cut character): a
   * stream of whole characters never does, and thousands of open streams each held one.
   */
  private decoder?: TextDecoder;
  /** The last chunk ended in CR (already read as a line end): an LF opening the next one belongs to it. */
  private afterCr = false;
  private whole: string | undefined;
  /**
   * The last push was `whole` and its text is the chunk's very bytes (whole characters, no CR): a relay that
   * changes none of its events can forward the chunk itself, sparing the text's encoding.
   */
  asIs = false;
  /** The decoder may hold the first bytes of a character cut by the end of the last chunk. */
  private mayHold = false;
  /** Some bytes were decoded: a byte order mark is dropped only before them. */
  private opened = false;

  /** The whole events the bytes complete: `chunk` from `start` to before `end` (all of it by default). */
  push(chunk: Uint8Array, start = 0, end = chunk.length): string[] {
    const opening = !this.opened && end > start;
    const heldBefore = this.mayHold || (opening && chunk[start] === 0xef);
    if (end > start) this.mayHold = chunk[end - 1]! >= 0x80;
    const text =
      heldBefore || this.mayHold
        ? this.streamingDecoder(opening).decode(partIn(chunk, start, end), STREAMING)
        : decodedWhole(chunk, start, end);
    if (opening) this.opened = true;
    const changed = this.afterCr || text.includes("\r");
    const events = this.split(changed ? this.withLfLineEnds(text) : text);
    this.asIs = this.whole !== undefined && !changed && !heldBefore && this.isWholeUtf8(chunk, start, end, text);
    return events;
  }

  /**
   * Nothing is buffered or carried over (no part of an event, a cut character or a CR) and the stream's first bytes
   * were read: a chunk of whole events may be read without this splitter.
   */
  get idle(): boolean {
    return this.opened && this.buffer === "" && !this.afterCr && !this.mayHold;
  }

  /** The stream's decoder, made now if need be: one made after the stream's first bytes keeps a byte order mark. */
  private streamingDecoder(opening: boolean): TextDecoder {
    this.decoder ??= opening ? new TextDecoder() : new TextDecoder("utf-8", { ignoreBOM: true });
    return this.decoder;
  }

  /** The whole events the text completes: a stream already decoded (a mapped one), as `push` for bytes. */
  pushText(text: string): string[] {
    const events = this.split(this.afterCr || text.includes("\r") ? this.withLfLineEnds(text) : text);
    this.asIs = false;
    return events;
  }

  /** The whole events `text` (LF line ends only) completes after what is buffered; the rest is kept. */
  private split(text: string): string[] {
    const buffer = this.buffer === "" ? text : this.buffer + text;
    const events: string[] = [];
    let from = 0;
    let eventEnd: number;
    while ((eventEnd = buffer.indexOf("\n\n", from)) !== -1) {
      events.push(buffer.slice(from, eventEnd));
      from = eventEnd + 2;
    }
    this.whole = buffer === text && from === buffer.length && from > 0 ? text : undefined;
    this.buffer = from === 0 ? buffer : buffer.slice(from);
    if (this.buffer.length > MAX_EVENT_CHARS) {
      throw new Error(`the upstream sent an event longer than ${MAX_EVENT_CHARS} characters`);
    }
    return events;
  }

  /**
   * Whether the chunk is valid UTF-8, all of it in `text`. A chunk that ends on a whole character decoded without
   * a replacement character was (the decoder replaces what is not); a check of the bytes is left for the rest.
   */
  private isWholeUtf8(chunk: Uint8Array, start: number, end: number, text: string): boolean {
    return (!this.mayHold && !text.includes(REPLACEMENT)) || isUtf8(partIn(chunk, start, end));
  }

  /** The text with CRLF and CR line ends as LF; an LF completing a CRLF cut by the previous chunk is dropped. */
  private withLfLineEnds(text: string): string {
    if (this.afterCr && text !== "") {
      this.afterCr = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    if (!text.includes("\r")) return text;
    this.afterCr = text.endsWith("\r");
    return text.replace(/\r\n?/g, "\n");
  }

  /**
   * The text of the last push when it was exactly its events, each with its blank line (nothing buffered before or
   * after): a relay that changes none of them can forward it as it is. Undefined otherwise. Taken once: an idle
   * stream does not hold its last chunk's text.
   */
  takeWhole(): string | undefined {
    const whole = this.whole;
    this.whole = undefined;
    return whole;
  }

  /** Whatever is left when the stream ends without a final blank line. */
  rest(): string[] {
    this.whole = undefined;
    this.asIs = false;
    const last = this.buffer.trim();
    this.buffer = "";
    return last ? [last] : [];
  }
}

/**
 * Where the data of a chunk that is exactly one event of one `data: ` line starts (it ends before the chunk's
 * blank line), in a chunk from `start` to before `end` of `bytes`; -1 for any other chunk (several events, other
 * fields, a CR, a part of an event). Such a chunk's data is what eventData reads from the event's text.
 */
export function oneDataLine(bytes: Buffer, start: number, end: number): number {
  const data = start + DATA_LINE.length;
  if (end - data < 3 || bytes[end - 1] !== LF || bytes[end - 2] !== LF) return -1;
  if (!startsAt(bytes, DATA_LINE, start) || bytes.indexOf(LF, data) !== end - 2) return -1;
  const cr = bytes.indexOf(CR, start);
  return cr >= 0 && cr < end ? -1 : data;
}

/** What the bytes from `start` to before `end` are as text: all ASCII, other valid UTF-8, or not UTF-8. */
export function encodingOf(bytes: Buffer, start: number, end: number): "ascii" | "utf8" | "invalid" {
  for (let at = start; at < end; at++)
    if (bytes[at]! >= 0x80) return isUtf8(partIn(bytes, start, end)) ? "utf8" : "invalid";
  return "ascii";
}

/** The data payload of an event (joined `data:` lines), or undefined for comments and empty events. */
export function eventData(event: string): string | undefined {
  // The usual event: one `data: ` line.
  if (event.startsWith("data: ") && !event.includes("\n")) return event.slice(6);
  // Named events (Anthropic's): an `event:` line, then one `data: ` line.
  const lineEnd = event.indexOf("\n");
  if (event.startsWith("event:") && event.startsWith("data: ", lineEnd + 1) && !event.includes("\n", lineEnd + 1))
    return event.slice(lineEnd + 7);
  let data: string | undefined;
  for (const line of event.split("\n")) {
    if (!line.startsWith("data")) continue;
    // A `data` line without a colon is a data line with an empty value.
    if (line.length > 4 && line[4] !== ":") continue;
    const value = line.slice(line[5] === " " ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}

/** The event's name (its `event:` line), or undefined when it has none. */
export function eventName(event: string): string | undefined {
  if (!event.includes("event:")) return undefined;
  // The usual named event: an `event:` line, then one `data: ` line.
  const lineEnd = event.indexOf("\n");
  if (event.startsWith("event:") && event.startsWith("data: ", lineEnd + 1) && !event.includes("\n", lineEnd + 1))
    return event.slice(event[6] === " " ? 7 : 6, lineEnd);
  let name: string | undefined;
  for (const line of event.split("\n")) {
    if (line.startsWith("event:")) name = line.slice(line[6] === " " ? 7 : 6);
  }
  return name;
}

/** One event's data as JSON, or undefined when it is not JSON (a reader for billing skips such an event). */
export function parsedEvent(data: string): any {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
