/** The longest event an upstream may send, in characters: a stream that buffers more without an event end is refused. */
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/** Splits a byte stream of server-sent events into whole events ("…\n\n"), keeping partial ones buffered. */
export class SseSplitter {
  private buffer = "";
  private readonly decoder = new TextDecoder();

  push(chunk: Uint8Array): string[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    if (this.buffer.length > MAX_EVENT_CHARS && !this.buffer.includes("\n\n")) {
      throw new Error(`the upstream sent an event longer than ${MAX_EVENT_CHARS} characters`);
    }
    if (this.buffer.includes("\r")) this.buffer = this.buffer.replace(/\r\n?/g, "\n");
    const events: string[] = [];
    let start = 0;
    let end: number;
    while ((end = this.buffer.indexOf("\n\n", start)) !== -1) {
      events.push(this.buffer.slice(start, end));
      start = end + 2;
    }
    if (start > 0) this.buffer = this.buffer.slice(start);
    return events;
  }

  /** Whatever is left when the stream ends without a final blank line. */
  rest(): string[] {
    const last = this.buffer.trim();
    this.buffer = "";
    return last ? [last] : [];
  }
}

/** The data payload of an event (joined `data:` lines), or undefined for comments and empty events. */
export function eventData(event: string): string | undefined {
  // The usual event: one `data: ` line.
  if (event.startsWith("data: ") && !event.includes("\n")) return event.slice(6);
  let data: string | undefined;
  for (const line of event.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const value = line.slice(line[5] === " " ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}
