/** Anthropic's most frequent stream events, as its API writes them: fixed fields in a fixed order, no blanks. */
const INDEX = "(0|[1-9][0-9]{0,8})";
const DELTA_HEAD = '{"type":"content_block_delta","index":';
const TEXT_HEAD = ',"delta":{"type":"text_delta","text":"';
const TEXT_END = '"}}';
const QUOTE = 34;
const BACKSLASH = 92;
const BLOCK_STOP = new RegExp(`^\\{"type":"content_block_stop","index":${INDEX}\\}$`);
const TEXT_BLOCK_START = new RegExp(
  `^\\{"type":"content_block_start","index":${INDEX},"content_block":\\{"type":"text","text":""\\}\\}$`,
);
const MESSAGE_DELTA =
  /^\{"type":"message_delta","delta":\{"stop_reason":(null|"[a-z_]{1,40}"),"stop_sequence":null\},"usage":\{"output_tokens":(0|[1-9][0-9]{0,8})\}\}$/;
const PING = '{"type":"ping"}';
const MESSAGE_STOP = '{"type":"message_stop"}';

/**
 * The text of a text delta written that way (a content block's index, the text with nothing escaped), read in place:
 * the text JSON.parse would give, without the event's objects (the most frequent event of a translated stream).
 * Undefined for any other event or form.
 */
export function plainTextDelta(data: string): string | undefined {
  const indexEnd = textDeltaIndexEnd(data);
  return indexEnd < 0 ? undefined : textAt(data, indexEnd + TEXT_HEAD.length);
}

/** Where a text delta's index ends (1–9 digits, no leading zero), its text's head following; -1 when not one. */
function textDeltaIndexEnd(data: string): number {
  if (!data.startsWith(DELTA_HEAD)) return -1;
  let at = DELTA_HEAD.length;
  const first = data.charCodeAt(at);
  if (first === 48) at++;
  else for (; at < DELTA_HEAD.length + 9 && isDigit(data.charCodeAt(at)); at++);
  if (at === DELTA_HEAD.length || isDigit(data.charCodeAt(at))) return -1;
  return data.startsWith(TEXT_HEAD, at) ? at : -1;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The text from `start` to the event's closing `"}}`, undefined when it holds a quote, a backslash or a control character. */
function textAt(data: string, start: number): string | undefined {
  const end = data.length - TEXT_END.length;
  if (end < start || !data.endsWith(TEXT_END)) return undefined;
  for (let at = start; at < end; at++) {
    const code = data.charCodeAt(at);
    if (code === QUOTE || code === BACKSLASH || code < 32) return undefined;
  }
  return data.slice(start, end);
}

/**
 * An event's data read without JSON.parse when it is one of those events written that way (a text delta whose text
 * has nothing escaped, a text block's start, a block's stop, a ping, the message's final delta with its output tokens
 * alone, the message's stop): the object JSON.parse gives. Undefined otherwise.
 */
export function plainEvent(data: string): Record<string, any> | undefined {
  const text = plainTextDelta(data);
  if (text !== undefined) {
    const index = Number(data.slice(DELTA_HEAD.length, data.indexOf(TEXT_HEAD, DELTA_HEAD.length)));
    return { type: "content_block_delta", index, delta: { type: "text_delta", text } };
  }
  if (data === PING) return { type: "ping" };
  if (data === MESSAGE_STOP) return { type: "message_stop" };
  const stop = BLOCK_STOP.exec(data);
  if (stop) return { type: "content_block_stop", index: Number(stop[1]) };
  const start = TEXT_BLOCK_START.exec(data);
  if (start) return { type: "content_block_start", index: Number(start[1]), content_block: { type: "text", text: "" } };
  const end = MESSAGE_DELTA.exec(data);
  if (!end) return undefined;
  const reason = end[1] === "null" ? null : end[1]!.slice(1, -1);
  return {
    type: "message_delta",
    delta: { stop_reason: reason, stop_sequence: null },
    usage: { output_tokens: Number(end[2]) },
  };
}
