import { eventData, eventName, SseSplitter } from "../sse";

/** Turns one upstream stream's events into OpenAI SSE text. */
export interface EventMapper {
  /** The OpenAI events for one upstream event's data ("" for none); `name` is its `event:` field, if any. */
  event(data: string, name?: string): string;
  /** What to add when the upstream ended cleanly (usage chunk and [DONE], if the stream was complete). */
  end(): string;
}

const encoder = new TextEncoder();

/**
 * A stream of the mapper's output, read from the upstream as the client reads it: each upstream chunk
 * is split into events and mapped at once. Cancelling it cancels the upstream; an upstream failure
 * fails it (the relay then ends the call as broken, without [DONE]).
 */
export function mapEventStream(upstream: ReadableStream<Uint8Array>, mapper: EventMapper): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const splitter = new SseSplitter();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        let out = "";
        for (const event of done ? splitter.rest() : splitter.push(value)) {
          const data = eventData(event);
          if (data !== undefined && data.trim() !== "") out += mapper.event(data, eventName(event));
        }
        if (done) out += mapper.end();
        if (out) controller.enqueue(encoder.encode(out));
        if (done) return controller.close();
        if (out) return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Parses an event's JSON data; undefined for anything else. */
export function parseEvent(data: string): any {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
