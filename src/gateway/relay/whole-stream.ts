import type { Usage } from "../../service/billing/quota";
import { streamedUsage, type EndpointKind } from "../../service/relay/endpoints";
import { asBuffer } from "../upstream/reply";
import { CR, DATA_LINE, LF, startsAt, USAGE_KEY } from "./sse-bytes";

const DONE_LINE = "data: [DONE]";
const DONE_EVENT = Buffer.from(DONE_LINE);
const END = Buffer.from(`${DONE_LINE}\n\n`);
/** Only events that may carry a usage report are parsed; the others pass through as they came. */
export const USAGE_MARK = /"usage"\s*:\s*\{/;

/** Whether a chunk ends with the stream's end marker: only then can it hold a whole stream. */
export const endsStream = (chunk: Uint8Array): boolean => startsAt(chunk, END, chunk.length - END.length);

/** Whether the `"usage"` key at `at` opens an object (`"usage" : {`, JSON's blanks allowed), as USAGE_MARK says. */
function usageObjectAt(bytes: Uint8Array, at: number): boolean {
  let colon = false;
  for (let i = at + USAGE_KEY.length; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x20 || byte === 0x09) continue;
    if (byte === 0x3a && !colon) colon = true;
    else return colon && byte === 0x7b;
  }
  return false;
}

/**
 * The one event carrying a usage report, as [start, end) of its line, when the stream is only single-line
 * `data: ` events each followed by a blank line, with [DONE] last and only there; else undefined.
 */
function usageEvent(bytes: Buffer): [number, number] | undefined {
  if (!endsStream(bytes) || bytes.indexOf(CR) >= 0) return undefined;
  const doneAt = bytes.length - END.length;
  let found: [number, number] | undefined;
  let key = bytes.indexOf(USAGE_KEY);
  for (let at = 0; at < doneAt; ) {
    if (!startsAt(bytes, DATA_LINE, at)) return undefined;
    const end = bytes.indexOf(LF, at);
    if (bytes[end + 1] !== LF || (end - at === DONE_EVENT.length && startsAt(bytes, DONE_EVENT, at))) return undefined;
    for (; key >= 0 && key < end; key = bytes.indexOf(USAGE_KEY, key + 1)) {
      if (!usageObjectAt(bytes, key)) continue;
      if (found) return undefined;
      found = [at, end];
    }
    at = end + 2;
  }
  return found;
}

/** A whole stream relayed from its bytes: the body the client gets and the upstream's usage. */
export interface WholeStream {
  body: Uint8Array<ArrayBuffer>;
  usage: Usage;
}

/**
 * The one decision "the whole stream is here: relay it from its bytes", for bytes already at hand (a reply's
 * whole body, a stream's first read): they must end the stream and have the shape `relayWholeStream` takes.
 * Undefined otherwise (or without bytes): then the stream is relayed event by event.
 */
export const wholeStreamIn = (
  bytes: Uint8Array | undefined,
  kind: EndpointKind,
  clientWantsUsage: boolean,
): WholeStream | undefined =>
  bytes !== undefined && endsStream(bytes) ? relayWholeStream(bytes, kind, clientWantsUsage) : undefined;

/**
 * A stream that arrived whole in one chunk, relayed without taking it apart event by event, when it has the
 * shape almost every upstream sends: single-line `data: ` events, one usage report, [DONE] last and only there.
 * Works on the bytes: only the usage event is decoded. Answers what the client gets (the same bytes, less a
 * usage-only chunk it did not ask for, cut out of `chunk` in place: the chunk is the caller's to give) and the
 * usage; undefined for any other shape, which the event-by-event relay handles.
 */
export function relayWholeStream(
  chunk: Uint8Array,
  kind: EndpointKind,
  clientWantsUsage: boolean,
): WholeStream | undefined {
  const bytes = asBuffer(chunk);
  const found = usageEvent(bytes);
  if (!found) return undefined;
  const [start, end] = found;
  let event: any;
  try {
    event = JSON.parse(bytes.toString("utf8", start + DATA_LINE.length, end));
  } catch {
    return undefined;
  }
  const usage = streamedUsage(kind, event);
  if (!usage) return undefined;
  const usageOnly = Array.isArray(event.choices) && event.choices.length === 0;
  if (!usageOnly || clientWantsUsage) return { body: bytes as Uint8Array<ArrayBuffer>, usage };
  bytes.copyWithin(start, end + 2);
  return { body: bytes.subarray(0, bytes.length - (end + 2 - start)) as Uint8Array<ArrayBuffer>, usage };
}

/** The reply for a stream relayed whole. */
export const wholeStreamResponse = (body: Uint8Array<ArrayBuffer>, headers: Record<string, string>): Response =>
  new Response(body, { status: 200, headers });
