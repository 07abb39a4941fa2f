import type { PivotEvent } from "../pivot-events";
import { eventData, eventName, SseSplitter } from "../sse";
import type { ChunkWriter } from "./openai-shape";

/** Turns one upstream stream's events into OpenAI SSE text. */
export interface EventMapper {
  /** The OpenAI events for one upstream event's data ("" for none); `name` is its `event:` field, if any. */
  event(data: string, name?: string): string;
  /** What to add when the upstream ended cleanly (usage chunk and [DONE], if the stream was complete). */
  end(): string;
  /** The mapper reads events' names (the `name` argument): only then is each event's `event:` line looked for. */
  readonly named?: boolean;
  /** The writer of everything this mapper outputs, when that is all it outputs: a whole stream can be mapped to objects. */
  readonly writer?: ChunkWriter;
}

const encoder = new TextEncoder();

/** The mapper's output for a run of the upstream's SSE events. */
function mapEvents(events: string[], mapper: EventMapper): string {
  let out = "";
  for (const event of events) {
    const data = eventData(event);
    if (data !== undefined && data.trim() !== "")
      out += mapper.event(data, mapper.named ? eventName(event) : undefined);
  }
  return out;
}

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
        let out = mapEvents(done ? splitter.rest() : splitter.push(value), mapper);
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

/**
 * What `mapEventStream` sends for an upstream stream that has arrived whole (it ended cleanly), mapped at once:
 * no stream to read, the same bytes.
 */
export function mapWholeEventStream(upstream: Uint8Array, mapper: EventMapper): Uint8Array {
  return Buffer.from(mapWholeEvents(upstream, mapper));
}

/**
 * The pivot events of an upstream stream that has arrived whole, as the objects the mapper's writer would have
 * written (`pivotText` writes them): for a client dialect that translates objects. Undefined for a mapper that
 * writes text of its own.
 */
export function mapWholeEventObjects(upstream: Uint8Array, mapper: EventMapper): PivotEvent[] | undefined {
  const { writer } = mapper;
  if (!writer) return undefined;
  const events: PivotEvent[] = [];
  writer.record = events;
  writer.textless = true;
  return mapWholeEvents(upstream, mapper) === "" ? events : undefined;
}

function mapWholeEvents(upstream: Uint8Array, mapper: EventMapper): string {
  const splitter = new SseSplitter();
  return mapEvents(splitter.push(upstream), mapper) + mapEvents(splitter.rest(), mapper) + mapper.end();
}

/** Parses an event's JSON data; undefined for anything else. */
export function parseEvent(data: string): any {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
