/** Reads a body chunk by chunk: a ReadableStreamDefaultReader has this shape, and so does the upstream client's reply. */
export interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
}

/**
 * Takes a reply's body as its bytes arrive, in the socket's own turn: no promise, result or queue per chunk,
 * which thousands of open streams pay for in garbage and event-loop turns.
 */
export interface BodySink {
  /**
   * Body bytes (framing removed), in order: `source` from `start` to before `end` (`source` is the socket's
   * chunk, framing and all; partOf makes a part a Buffer of its own).
   */
  bytes(source: Buffer, start: number, end: number): void;
  /**
   * Whole events already as text (a mapped stream's), where the sink takes them so: spares encoding them for
   * `bytes` and decoding them again.
   */
  text?(events: string): void;
  /** The body is complete (no error) or will not be (the error says why). */
  end(error?: Error): void;
}

/** A reader that can hand the rest of its body to a sink instead (the upstream client's reply can). */
export interface PushReader extends ChunkReader {
  /** From now on the body goes to `sink`; a read still pending is never settled. */
  attach(sink: BodySink): void;
  /** Stops reading from the network until `resume` (the sink's client is slow). */
  pause(): void;
  resume(): void;
}

export const canPush = (reader: ChunkReader): reader is PushReader => "attach" in reader;

/** A reader whose connection can outlive what its reader wanted (the upstream client's reply). */
interface Releasable extends ChunkReader {
  /** Nothing more is wanted: the rest of the body is read and dropped, briefly, so the connection serves again. */
  release(): void;
}

const ignore = () => {};

/**
 * Lets go of a reader that has all it wanted (a stream's end marker came): the few bytes that end the body are
 * still read where the reader can, so the upstream connection goes back to the pool instead of being closed (a
 * provider writes the chunked body's end after [DONE], so a cancel there cost every stream a new connection).
 */
export function letGo(reader: ChunkReader): void {
  if ("release" in reader) (reader as Releasable).release();
  else reader.cancel().catch(ignore);
}

/** An upstream's answer, whichever client fetched it: status, headers, and the body once or chunk by chunk. */
export interface UpstreamReply {
  readonly status: number;
  /** A header's value (repeated headers joined by ", "), null when absent. */
  header(name: string): string | null;
  /** The whole body, once it has all arrived. */
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  /** The body's chunks as they arrive; `cancel()` ends the exchange early. One reader per reply. */
  reader(): ChunkReader;
  /** The body as a web stream (for the families that translate streams). */
  stream(): ReadableStream<Uint8Array>;
  /** The whole body, taken now, when all of it has already arrived and none was read; else undefined. */
  arrived(): Uint8Array | undefined;
}

const utf8 = new TextDecoder();

/** The same bytes as a Buffer (no copy): Bun hands sockets' data over as Buffers already. */
export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Parts up to this size are copied rather than viewed (see partOf). */
const COPIED_BYTES = 4096;

/**
 * A part of a socket's chunk as a Buffer (the chunk itself when it is all of it). A view of a socket's Buffer costs
 * the engine more than a copy of a small part (Bun 1.4.5, a 200-byte part: ~0.6 µs against ~0.15; about even at
 * 4 KB) and less than a copy of a large one (64 KB: ~8 against ~19 µs, the Buffer's making included). A copy goes
 * into a new Buffer: Uint8Array's `slice` makes its result through the Buffer constructor's species, ~0.3 µs more.
 */
export function partOf(bytes: Buffer, start: number, end: number): Buffer {
  if (start === 0 && end === bytes.length) return bytes;
  if (end - start > COPIED_BYTES) return bytes.subarray(start, end);
  const part = Buffer.allocUnsafe(end - start);
  bytes.copy(part, 0, start, end);
  return part;
}

/** Several chunks as one (the one itself when alone). */
export const joinChunks = (chunks: Uint8Array[]): Uint8Array =>
  chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);

/** Reads a reader to its end. */
export async function readAll(reader: ChunkReader): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return joinChunks(chunks);
    chunks.push(value);
  }
}

/** A reader as a web stream. */
export function readerStream(reader: ChunkReader): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: () => reader.cancel(),
  });
}

/** A reply fetched with `fetch` (form uploads). */
export function fetchedReply(response: Response): UpstreamReply {
  const body = () => response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    bytes: async () => new Uint8Array(await response.arrayBuffer()),
    text: () => response.text(),
    reader: () => body().getReader(),
    stream: body,
    arrived: () => undefined,
  };
}

/** A reader of bytes already at hand. */
export function bytesReader(body: Uint8Array): ChunkReader {
  let taken = false;
  return {
    read: () => {
      if (taken || body.length === 0) return Promise.resolve({ done: true, value: undefined });
      taken = true;
      return Promise.resolve({ done: false, value: body });
    },
    cancel: async () => {},
  };
}

/** A reply whose body is already whole (a decoded compressed body). */
export function wholeReply(status: number, header: (name: string) => string | null, body: Uint8Array): UpstreamReply {
  const reader = bytesReader(body);
  return {
    status,
    header,
    bytes: () => Promise.resolve(body),
    text: () => Promise.resolve(utf8.decode(body)),
    reader: () => reader,
    stream: () => readerStream(reader),
    arrived: () => undefined,
  };
}
