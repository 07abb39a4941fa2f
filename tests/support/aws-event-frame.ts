/**
 * One message of AWS's binary event stream, built by hand (independent of the decoder under test):
 * [total length][headers length][prelude CRC32] [headers: name length, name, type 7 (string), value length, value]
 * [payload] [message CRC32], integers big-endian.
 */
export function awsEventFrame(headers: Record<string, string>, payload: string): Uint8Array {
  const utf8 = new TextEncoder();
  const parts: number[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = utf8.encode(name);
    const v = utf8.encode(value);
    parts.push(n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v);
  }
  const head = Uint8Array.from(parts);
  const body = utf8.encode(payload);
  const total = 12 + head.length + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, head.length);
  view.setUint32(8, Bun.hash.crc32(out.subarray(0, 8)));
  out.set(head, 12);
  out.set(body, 12 + head.length);
  view.setUint32(total - 4, Bun.hash.crc32(out.subarray(0, total - 4)));
  return out;
}

/** An event message (`:message-type` event) of the given type with a JSON payload. */
export const awsEvent = (type: string, payload: unknown) =>
  awsEventFrame(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    JSON.stringify(payload),
  );

/** An exception message of the given type with Bedrock's {message} payload. */
export const awsException = (type: string, message: string) =>
  awsEventFrame(
    { ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" },
    JSON.stringify({ message }),
  );
