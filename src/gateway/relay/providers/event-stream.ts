import type { StreamWording } from "../../../shared/stream-wording";
import type { PivotEvent } from "../pivot-events";
import { eventData, eventName, MAX_EVENT_CHARS, SseSplitter } from "../sse";
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
const utf8 = new TextDecoder();

/**
 * The mapper's output for the event `text` holds from `start` to `end` (its blank line or the text's end).
 * The usual forms, one `data: ` line with or without an `event:` line before it, are read where they lie.
 */
function mapEventAt(text: string, start: number, end: number, mapper: EventMapper): string {
  const lineEnd = text.indexOf("\n", start);
  const oneLine = lineEnd === -1 || lineEnd >= end;
  let data: string | undefined;
  let name: string | undefined;
  if (oneLine && text.startsWith("data: ", start)) data = text.slice(start + 6, end);
  else if (!oneLine && text.startsWith("event:", start) && text.startsWith("data: ", lineEnd + 1)) {
    const next = text.indexOf("\n", lineEnd + 1);
    if (next === -1 || next >= end) {
      data = text.slice(lineEnd + 7, end);
      name = text.slice(start + (text.charCodeAt(start + 6) === 32 ? 7 : 6), lineEnd);
    }
  }
  if (data === undefined) {
    const event = start === 0 && end === text.length ? text : text.slice(start, end);
    data = eventData(event);
    if (data === undefined) return "";
    if (mapper.named) name = eventName(event);
  }
  return data.trim() === "" ? "" : mapper.event(data, mapper.named ? name : undefined);
}

/** The mapper's output for a run of the upstream's SSE events. */
export function mapEvents(events: string[], mapper: EventMapper): string {
  let out = "";
  for (const event of events) out += mapEventAt(event, 0, event.length, mapper);
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
  // Decoded and split at once when that gives the splitter's text: no UTF-8 sequence cut at the end, no CR to rewrite.
  const text = upstream.length > 0 && upstream[upstream.length - 1]! < 0x80 ? utf8.decode(upstream) : "\r";
  if (!text.includes("\r")) {
    let out = "";
    let start = 0;
    let end: number;
    while ((end = text.indexOf("\n\n", start)) !== -1) {
      out += mapEventAt(text, start, end, mapper);
      start = end + 2;
    }
    if (text.length - start > MAX_EVENT_CHARS) {
      throw new Error(`the upstream sent an event longer than ${MAX_EVENT_CHARS} characters`);
    }
    const tail = text.slice(start).trim();
    if (tail) out += mapEventAt(tail, 0, tail.length, mapper);
    return out + mapper.end();
  }
  const splitter = new SseSplitter();
  return mapEvents(splitter.push(upstream), mapper) + mapEvents(splitter.rest(), mapper) + mapper.end();
}

/** Makes the mapper of one call's stream. */
type MapperOf = (model: string, wording?: StreamWording) => EventMapper;

/**
 * A family whose event stream is mapped event by event: the mapper, named for the relay to map a pushed reply as it
 * arrives, and the web-stream mapping made of it for everything else.
 */
export const mappedEvents = (mapperOf: MapperOf) => ({
  streamMapper: mapperOf,
  mapStream: (upstream: ReadableStream<Uint8Array>, model: string, wording?: StreamWording) =>
    mapEventStream(upstream, mapperOf(model, wording)),
});

/** As `mappedEvents`, with a stream that arrived whole mapped at once (as bytes, and as the writer's objects). */
export const mappedEventsAndWhole = (mapperOf: MapperOf) => ({
  ...mappedEvents(mapperOf),
  mapWholeStream: (upstream: Uint8Array, model: string, wording?: StreamWording) =>
    mapWholeEventStream(upstream, mapperOf(model, wording)),
  mapWholeEvents: (upstream: Uint8Array, model: string, wording?: StreamWording) =>
    mapWholeEventObjects(upstream, mapperOf(model, wording)),
});

/** Parses an event's JSON data; undefined for anything else. */
export function parseEvent(data: string): any {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
