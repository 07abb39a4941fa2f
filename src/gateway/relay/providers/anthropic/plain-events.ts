/** Anthropic's most frequent stream events, as its API writes them: fixed fields in a fixed order, no blanks. */
const INDEX = "(0|[1-9][0-9]{0,8})";
const TEXT_DELTA = new RegExp(
  `^\\{"type":"content_block_delta","index":${INDEX},"delta":\\{"type":"text_delta","text":"([^"\\\\\\u0000-\\u001f]*)"\\}\\}$`,
);
const BLOCK_STOP = new RegExp(`^\\{"type":"content_block_stop","index":${INDEX}\\}$`);
const TEXT_BLOCK_START = new RegExp(
  `^\\{"type":"content_block_start","index":${INDEX},"content_block":\\{"type":"text","text":""\\}\\}$`,
);
const MESSAGE_DELTA =
  /^\{"type":"message_delta","delta":\{"stop_reason":(null|"[a-z_]{1,40}"),"stop_sequence":null\},"usage":\{"output_tokens":(0|[1-9][0-9]{0,8})\}\}$/;
const PING = '{"type":"ping"}';
const MESSAGE_STOP = '{"type":"message_stop"}';

/**
 * An event's data read without JSON.parse when it is one of those events written that way (a text delta whose text
 * has nothing escaped, a text block's start, a block's stop, a ping, the message's final delta with its output tokens
 * alone, the message's stop): the object JSON.parse gives. Undefined otherwise.
 */
export function plainEvent(data: string): Record<string, any> | undefined {
  const delta = TEXT_DELTA.exec(data);
  if (delta)
    return { type: "content_block_delta", index: Number(delta[1]), delta: { type: "text_delta", text: delta[2] } };
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
