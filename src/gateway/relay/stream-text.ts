import { streamedText, type EndpointKind } from "../../service/relay/endpoints";

/**
 * Raw event payloads kept for a possible count, in characters; past it they are reduced to their text. Small: a
 * chat chunk's payload is ~40 times its text, and thousands of streams are open at once (at 256 KiB, a stream of
 * 100 chunks held ~45 KiB of payloads until its usage came at the end). Each payload is parsed at most once
 * whatever the budget; a stream of a few chunks never is.
 */
const PAYLOAD_BUDGET = 512;
/**
 * Characters of text kept in `tail` before it becomes a run. A piece cut from an event holds on to the event's
 * whole text (the engine's slices share the string they were cut from: ~270 bytes held for ~20 characters), so
 * each piece is copied into `tail` at once (see `add`) rather than kept until a run is joined.
 */
const TAIL_CHARS = 128;
/** Put before a piece alone, and cut off again: a join with an empty string would be the piece itself, uncopied. */
const MARK = "|";
/** Runs kept before they are joined into one string (joining all the text at every run would copy it over and over). */
const RUNS_JOINED = 32;

const CONTENT = '"content"';
const DELTA = '"delta":{';
const DELTA_WITH_ROLE = '"delta":{"role":"assistant",';
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * The text of the usual chat chunk, read without parsing it: an object whose one `"content"` is a string with no
 * escapes, the first field of its `delta` but for a `role`, and no reasoning text. Undefined when the payload
 * needs the parser (parsing every chunk cost thousands of open streams a tenth of their CPU and much garbage).
 */
export function plainChatText(data: string): string | undefined {
  if (data.charCodeAt(0) !== 123 || data.charCodeAt(data.length - 1) !== 125) return undefined;
  const at = data.indexOf(CONTENT);
  if (at < 0 || !data.startsWith(':"', at + CONTENT.length)) return undefined;
  if (!data.startsWith(DELTA, at - DELTA.length) && !data.startsWith(DELTA_WITH_ROLE, at - DELTA_WITH_ROLE.length))
    return undefined;
  const start = at + CONTENT.length + 2;
  const end = plainStringEnd(data, start);
  if (end < 0 || data.includes(CONTENT, end) || data.includes("reasoning_content")) return undefined;
  return data.slice(start, end);
}

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
 * its events.
 */
export class StreamedText {
  private payloads: string[] = [];
  private payloadChars = 0;
  /** The text of the events before `payloads`, in order: joined runs, then `tail`. */
  private runs: string[] = [];
  /** The text since the last run, one flat string (see `add`). */
  private tail = "";

  constructor(private readonly kind: EndpointKind) {}

  keep(data: string): void {
    const plain = this.kind === "chat" && this.payloads.length === 0 ? plainChatText(data) : undefined;
    if (plain !== undefined) {
      this.add(plain);
      return;
    }
    this.payloads.push(data);
    this.payloadChars += data.length;
    if (this.payloadChars <= PAYLOAD_BUDGET) return;
    this.add(this.payloadText());
    this.payloads = [];
    this.payloadChars = 0;
  }

  /** Drops everything kept (the upstream reported usage: no count is needed). */
  forget(): void {
    this.payloads = [];
    this.payloadChars = 0;
    this.runs = [];
    this.tail = "";
  }

  get text(): string {
    return this.runs.join("") + this.tail + this.payloadText();
  }

  private add(text: string): void {
    if (!text) return;
    const head = this.tail || MARK;
    const joined = head + text;
    // Reading a character has the engine copy the join flat: `text`, and the event it was cut from, go now. The
    // read is checked: one whose result is unused (or known) is dropped by the optimizing compiler.
    if (joined.charCodeAt(0) !== head.charCodeAt(0)) throw new Error("the kept text was not joined");
    const tail = this.tail ? joined : joined.slice(MARK.length);
    if (tail.length < TAIL_CHARS) {
      this.tail = tail;
      return;
    }
    this.runs.push(tail);
    this.tail = "";
    if (this.runs.length >= RUNS_JOINED) this.runs = [this.runs.join("")];
  }

  private payloadText(): string {
    return this.payloads.map((data) => textOf(this.kind, data)).join("");
  }
}

function textOf(kind: EndpointKind, data: string): string {
  try {
    return streamedText(kind, JSON.parse(data));
  } catch {
    return "";
  }
}
