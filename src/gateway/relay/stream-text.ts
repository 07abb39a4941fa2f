import { streamedText, type EndpointKind } from "../../service/relay/endpoints";
import { startsAt } from "./sse-bytes";

/**
 * Raw event payloads kept for a possible count, in characters; past it they are reduced to their text. Small: a
 * chat chunk's payload is ~40 times its text, and thousands of streams are open at once (at 256 KiB, a stream of
 * 100 chunks held ~45 KiB of payloads until its usage came at the end). Each payload is parsed at most once
 * whatever the budget; a stream of a few chunks never is.
 */
const PAYLOAD_BUDGET = 512;
/** The kept text's first room, in bytes (doubled as it fills): a chat chunk's text is a few words. */
const FIRST_ROOM = 256;
/** The most bytes one UTF-16 code unit takes in UTF-8 (a lone surrogate is written as U+FFFD, 3 bytes). */
const MOST_BYTES_PER_UNIT = 3;

const CONTENT = '"content"';
const DELTA = '"delta":{';
const DELTA_WITH_ROLE = '"delta":{"role":"assistant",';
const QUOTE = 34;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const BACKSLASH = 92;

/**
 * The text of the usual chat chunk, read without parsing it: an object whose one `"content"` is a string with no
 * escapes, the first field of its `delta` but for a `role`, and no reasoning text. Undefined when the payload
 * needs the parser (parsing every chunk cost thousands of open streams a tenth of their CPU and much garbage).
 */
export function plainChatText(data: string): string | undefined {
  if (data.charCodeAt(0) !== OPEN_BRACE || data.charCodeAt(data.length - 1) !== CLOSE_BRACE) return undefined;
  const at = data.indexOf(CONTENT);
  if (at < 0 || !data.startsWith(':"', at + CONTENT.length)) return undefined;
  if (!data.startsWith(DELTA, at - DELTA.length) && !data.startsWith(DELTA_WITH_ROLE, at - DELTA_WITH_ROLE.length))
    return undefined;
  const start = at + CONTENT.length + 2;
  const end = plainStringEnd(data, start);
  if (end < 0 || data.includes(CONTENT, end) || data.includes("reasoning_content")) return undefined;
  return data.slice(start, end);
}

const CONTENT_BYTES = Buffer.from(CONTENT);
const DELTA_BYTES = Buffer.from(DELTA);
const DELTA_WITH_ROLE_BYTES = Buffer.from(DELTA_WITH_ROLE);
const REASONING_BYTES = Buffer.from("reasoning_content");
const COLON = 58;

/** Whether `needle` sits in `bytes` right before `at`. */
const endsAt = (bytes: Buffer, needle: Buffer, at: number) => startsAt(bytes, needle, at - needle.length);

/** Whether `needle` occurs in `bytes` from `from` to before `end`. */
const occursIn = (bytes: Buffer, needle: Buffer, from: number, end: number) => {
  const at = bytes.indexOf(needle, from);
  return at >= 0 && at + needle.length <= end;
};

/**
 * plainChatText read in UTF-8 bytes (a payload from `start` to before `end`): where the usual chat chunk's text
 * starts in them, else -1; it ends at the next quote. The same payloads qualify: its bytes need no decoding to be
 * kept. An offset, not a pair: thousands of open streams would make an array of every chunk.
 */
export function plainChatTextIn(bytes: Buffer, start: number, end: number): number {
  if (bytes[start] !== OPEN_BRACE || bytes[end - 1] !== CLOSE_BRACE) return -1;
  const at = bytes.indexOf(CONTENT_BYTES, start);
  const open = at + CONTENT_BYTES.length;
  if (at < 0 || open + 2 > end || bytes[open] !== COLON || bytes[open + 1] !== QUOTE) return -1;
  if (!endsAt(bytes, DELTA_BYTES, at) && !endsAt(bytes, DELTA_WITH_ROLE_BYTES, at)) return -1;
  const from = open + 2;
  let to = from;
  for (; to < end; to++) {
    const code = bytes[to];
    if (code === QUOTE) break;
    if (code === BACKSLASH) return -1;
  }
  if (to >= end || occursIn(bytes, CONTENT_BYTES, to, end) || occursIn(bytes, REASONING_BYTES, start, end)) return -1;
  return from;
}

/** Where the text plainChatTextIn found at `from` ends: its closing quote (the text has no escapes). */
export const plainChatTextEnd = (bytes: Buffer, from: number): number => bytes.indexOf(QUOTE, from);

/** Where the JSON string whose text starts at `start` ends (its closing quote); -1 when it has an escape or no end. */
function plainStringEnd(data: string, start: number): number {
  for (let at = start; at < data.length; at++) {
    const code = data.charCodeAt(at);
    if (code === QUOTE) return at;
    if (code === BACKSLASH) return -1;
  }
  return -1;
}

/**
 * What a relayed stream generated, kept in case the upstream never reports usage and the gateway must count
 * it: the text of the usual chat chunk read at once (see plainChatText); other events' payloads as they came
 * (parsed only if needed), reduced to their text past PAYLOAD_BUDGET so a long stream keeps its text rather than
 * its events. The text is written as UTF-8 into one buffer that doubles as it fills: whatever its length, an
 * open stream keeps one object for it, whose bytes the collector does not walk (a string per run of text made a
 * stream of 100 chunks keep up to 15, each of which every full collection marks), and nothing of the events it
 * was read from.
 */
export class StreamedText {
  private payloads: string[] | undefined = undefined;
  private payloadChars = 0;
  /** The text of the events before `payloads`, in order, as UTF-8: `used` bytes of it. */
  private bytes: Buffer | undefined = undefined;
  private used = 0;

  constructor(private readonly kind: EndpointKind) {}

  keep(data: string): void {
    const plain = this.kind === "chat" && this.payloads === undefined ? plainChatText(data) : undefined;
    if (plain !== undefined) {
      this.add(plain);
      return;
    }
    (this.payloads ??= []).push(data);
    this.payloadChars += data.length;
    if (this.payloadChars <= PAYLOAD_BUDGET) return;
    this.add(this.payloadText());
    this.payloads = undefined;
    this.payloadChars = 0;
  }

  /** Whether `keep` reads a payload as plainChatText does now (what `keepText` may be handed instead). */
  get keepsPlainText(): boolean {
    return this.kind === "chat" && this.payloads === undefined;
  }

  /** The text plainChatTextIn found, kept as `keep` keeps a plain chat chunk's text: its UTF-8 bytes are copied. */
  keepText(source: Buffer, from: number, to: number): void {
    if (to <= from) return;
    let bytes = this.bytes;
    if (!bytes || bytes.length - this.used < to - from) bytes = this.grow(to - from);
    this.used += source.copy(bytes, this.used, from, to);
  }

  /** Drops everything kept (the upstream reported usage: no count is needed). */
  forget(): void {
    this.payloads = undefined;
    this.payloadChars = 0;
    this.bytes = undefined;
    this.used = 0;
  }

  get text(): string {
    const written = this.bytes ? this.bytes.toString("utf8", 0, this.used) : "";
    return written + this.payloadText();
  }

  private add(text: string): void {
    if (!text) return;
    const most = text.length * MOST_BYTES_PER_UNIT;
    let bytes = this.bytes;
    if (!bytes || bytes.length - this.used < most) bytes = this.grow(most);
    this.used += bytes.write(text, this.used);
  }

  /** Room for `more` bytes past those used: a buffer twice as large (or as large as needed), the text copied in. */
  private grow(more: number): Buffer {
    const size = Math.max(FIRST_ROOM, (this.bytes?.length ?? 0) * 2, this.used + more);
    const grown = Buffer.allocUnsafeSlow(size);
    this.bytes?.copy(grown, 0, 0, this.used);
    this.bytes = grown;
    return grown;
  }

  private payloadText(): string {
    return this.payloads ? this.payloads.map((data) => textOf(this.kind, data)).join("") : "";
  }
}

function textOf(kind: EndpointKind, data: string): string {
  try {
    return streamedText(kind, JSON.parse(data));
  } catch {
    return "";
  }
}
