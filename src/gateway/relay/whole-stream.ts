import type { Usage } from "../../service/billing/quota";
import { streamedUsage, type EndpointKind } from "../../service/relay/endpoints";

const END = "data: [DONE]\n\n";
const END_BYTES = new TextEncoder().encode(END);
/** Only events that may carry a usage report are parsed; the others pass through as they came. */
export const USAGE_MARK = /"usage"\s*:\s*\{/;
const USAGE_MARKS = new RegExp(USAGE_MARK.source, "g");
const utf8 = new TextDecoder();

/** Whether a chunk ends with the stream's end marker: only then can it hold a whole stream. */
export function endsStream(chunk: Uint8Array): boolean {
  if (chunk.length < END_BYTES.length) return false;
  const offset = chunk.length - END_BYTES.length;
  for (let i = 0; i < END_BYTES.length; i++) if (chunk[offset + i] !== END_BYTES[i]) return false;
  return true;
}

/** Whether the text is only single-line `data: ` events, each followed by a blank line. */
function plainEvents(text: string): boolean {
  if (text.includes("\r")) return false;
  for (let at = 0; at < text.length; ) {
    if (!text.startsWith("data: ", at)) return false;
    const end = text.indexOf("\n", at);
    if (end < 0 || text.charCodeAt(end + 1) !== 10) return false;
    at = end + 2;
  }
  return true;
}

/**
 * A stream that arrived whole in one chunk, relayed without taking it apart event by event, when it has the
 * shape almost every upstream sends: single-line `data: ` events, one usage report, [DONE] last and only there.
 * Answers what the client gets (the same events, less a usage-only chunk it did not ask for; as bytes unless
 * cutting non-ASCII text) and the usage;
 * undefined for any other shape, which the event-by-event relay handles.
 */
export function relayWholeStream(chunk: Uint8Array, kind: EndpointKind, clientWantsUsage: boolean): { body: string | Uint8Array<ArrayBuffer>; usage: Usage } | undefined {
  const text = utf8.decode(chunk);
  if (text.indexOf(END) !== text.length - END.length || !plainEvents(text)) return undefined;
  USAGE_MARKS.lastIndex = 0;
  const mark = USAGE_MARKS.exec(text);
  if (!mark || USAGE_MARKS.exec(text)) return undefined;
  const before = text.lastIndexOf("\n\n", mark.index);
  const start = before < 0 ? 0 : before + 2;
  const end = text.indexOf("\n\n", start);
  let event: any;
  try {
    event = JSON.parse(text.slice(start + 6, end));
  } catch {
    return undefined;
  }
  const usage = streamedUsage(kind, event);
  if (!usage) return undefined;
  const usageOnly = Array.isArray(event.choices) && event.choices.length === 0;
  if (!usageOnly || clientWantsUsage) return { body: chunk as Uint8Array<ArrayBuffer>, usage };
  // ASCII text (as long as its bytes): the string's offsets are the bytes', so the bytes are cut, not re-encoded.
  if (text.length !== chunk.length) return { body: text.slice(0, start) + text.slice(end + 2), usage };
  const body = new Uint8Array(chunk.length - (end + 2 - start));
  body.set(chunk.subarray(0, start));
  body.set(chunk.subarray(end + 2), start);
  return { body, usage };
}
