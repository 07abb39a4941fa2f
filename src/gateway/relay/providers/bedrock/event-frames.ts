/** One message of AWS's binary event stream: its kind, event or exception type, and its payload as text. */
export interface AwsEvent {
  /** `event` or `exception` (also `error` for service errors). */
  messageType: string;
  /** The event's or the exception's type (`chunk`, `contentBlockDelta`, `throttlingException`, …). */
  type: string;
  payload: string;
}

/** Maps the events of one stream to OpenAI SSE text. */
export interface AwsEventMapper {
  event(e: AwsEvent): string;
  end(): string;
}

/** smithy's event-stream codec, loaded with the first AWS stream. */
let smithy: ReturnType<typeof loadSmithy> | undefined;
async function loadSmithy() {
  const { EventStreamCodec, getChunkedStream } = await import("@smithy/core/event-streams");
  const { fromUtf8, toUtf8 } = await import("@smithy/util-utf8");
  return { codec: new EventStreamCodec(toUtf8, fromUtf8), getChunkedStream, toUtf8 };
}

const encoder = new TextEncoder();
const header = (headers: Record<string, { value: unknown }>, name: string) => String(headers[name]?.value ?? "");

/**
 * AWS's `application/vnd.amazon.eventstream` reply (prelude with lengths and CRCs, headers, payload, CRC) as
 * the mapper's text: messages are framed across chunk boundaries and their checksums verified by smithy's
 * codec. A truncated or corrupt stream fails the output (the relay then ends the call as broken).
 */
export function mapAwsEventStream(
  upstream: ReadableStream<Uint8Array>,
  mapper: AwsEventMapper,
): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const chunks = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    },
  };
  let frames: AsyncIterator<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { codec, getChunkedStream, toUtf8 } = await (smithy ??= loadSmithy());
      frames ??= getChunkedStream(chunks)[Symbol.asyncIterator]();
      for (;;) {
        const { done, value } = await frames.next();
        if (done) {
          const rest = mapper.end();
          if (rest) controller.enqueue(encoder.encode(rest));
          return controller.close();
        }
        const { headers, body } = codec.decode(value);
        const messageType = header(headers, ":message-type");
        const type =
          header(headers, messageType === "event" ? ":event-type" : ":exception-type") ||
          header(headers, ":error-code");
        const out = mapper.event({ messageType, type, payload: toUtf8(body) });
        if (out) return controller.enqueue(encoder.encode(out));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The message of an exception event's payload ({message} or {Message}), or its type. */
export function exceptionMessage(e: AwsEvent): string {
  try {
    const parsed = JSON.parse(e.payload);
    return String(parsed?.message ?? parsed?.Message ?? e.type);
  } catch {
    return e.payload || e.type;
  }
}
