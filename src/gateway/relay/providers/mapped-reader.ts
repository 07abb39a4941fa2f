import { canPush, letGo, readerStream, type BodySink, type ChunkReader, type PushReader } from "../../upstream/reply";
import { SseSplitter } from "../sse";
import { mapEvents, mapEventStream, type EventMapper } from "./event-stream";

const DONE: ReadableStreamReadResult<Uint8Array> = { done: true, value: undefined };
const ignore = () => {};

/** An upstream's reply mapped by `mapper` as it arrives: pushed where the reply can push (see MappedReader). */
export const mappedReader = (reply: ChunkReader, mapper: EventMapper): ChunkReader =>
  canPush(reply) ? new MappedReader(reply, mapper) : mapEventStream(readerStream(reply), mapper).getReader();

/**
 * An upstream's event stream mapped as it arrives (what `mapEventStream` gives, without web streams): read chunk by
 * chunk, or, when the upstream can push its body, pushed on to a sink in the socket's own turn. A translated
 * stream read through two web streams cost each chunk a dozen promises and ~2.5 KB of garbage, and thousands of
 * open streams the collections that came of it.
 */
export class MappedReader implements PushReader, BodySink {
  private readonly splitter = new SseSplitter();
  private sink?: BodySink;
  /** The mapping is over (the upstream ended, failed or was let go): nothing more is read or pushed. */
  private over = false;

  /** `upstream` must be able to push (see `mappedReader`): the relay attaches to every reader that says it can. */
  constructor(
    private readonly upstream: PushReader,
    private readonly mapper: EventMapper,
  ) {}

  async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    while (!this.over) {
      const { done, value } = await this.upstream.read();
      const out = this.mapped(done ? this.splitter.rest() : this.splitter.push(value), done);
      if (done) this.over = true;
      if (out) return { done: false, value: Buffer.from(out) };
    }
    return DONE;
  }

  cancel(): Promise<void> {
    this.over = true;
    return this.upstream.cancel();
  }

  /** The mapping has all it wanted: the upstream is let go (its connection kept where it can be). */
  release(): void {
    this.over = true;
    letGo(this.upstream);
  }

  attach(sink: BodySink): void {
    this.sink = sink;
    this.upstream.attach(this);
  }

  pause(): void {
    this.upstream.pause();
  }

  resume(): void {
    this.upstream.resume();
  }

  bytes(source: Buffer, start: number, end: number): void {
    if (this.over) return;
    let out: string;
    try {
      out = this.mapped(this.splitter.push(source, start, end), false);
    } catch (error) {
      this.fail(error as Error);
      return;
    }
    if (out) this.pass(out);
  }

  end(error?: Error): void {
    if (this.over) return;
    if (error) {
      this.over = true;
      this.sink!.end(error);
      return;
    }
    let out: string;
    try {
      out = this.mapped(this.splitter.rest(), true);
    } catch (failure) {
      this.fail(failure as Error);
      return;
    }
    this.over = true;
    if (out) this.pass(out);
    this.sink!.end();
  }

  /** Mapped events on to the sink: as text where it takes text. */
  private pass(out: string): void {
    const sink = this.sink!;
    if (sink.text) sink.text(out);
    else {
      const bytes = Buffer.from(out);
      sink.bytes(bytes, 0, bytes.length);
    }
  }

  /** The mapping failed (an event too long, say): the upstream is given up and the sink told. */
  private fail(error: Error): void {
    this.over = true;
    this.upstream.cancel().catch(ignore);
    this.sink!.end(error);
  }

  /** The mapper's output for the events, and its end when the upstream ended cleanly ("" for none). */
  private mapped(events: string[], ended: boolean): string {
    const out = mapEvents(events, this.mapper);
    return ended ? out + this.mapper.end() : out;
  }
}
