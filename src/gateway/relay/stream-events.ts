import type { Usage } from "../../service/billing/quota";
import { streamedUsage } from "../../service/relay/endpoints";
import { partOf } from "../upstream/reply";
import { encodingOf, eventData, oneDataLine, SseSplitter } from "./sse";
import type { StreamEnd, StreamOptions, StreamOutcome } from "./stream-outcome";
import { USAGE_KEY } from "./sse-bytes";
import { plainChatTextEnd, plainChatTextIn, StreamedText } from "./stream-text";
import { USAGE_MARK } from "./whole-stream";

const DONE_EVENT = "data: [DONE]\n\n";
const END: ReadableStreamReadResult<Uint8Array> = { done: true, value: undefined };
const withBlankLine = (event: string) => `${event}\n\n`;
/** What `takeEvent` answers for an event the client gets as it came (with its blank line). */
const AS_IS = null;

/** The stream's end marker, allowing for stray spaces around it (checked on every event: no copy for the usual ones). */
const isDone = (data: string) => data === "[DONE]" || (data.length < 16 && data.trim() === "[DONE]");

const usageJson = (u: Usage) => ({
  prompt_tokens: u.promptTokens,
  completion_tokens: u.completionTokens,
  total_tokens: u.promptTokens + u.completionTokens,
});

/**
 * What billing is handed: the upstream's usage, else the generated text (kept as StreamedText keeps it, put
 * together only when asked for: only a stream without usage needs it), and timings. One object with the text: an
 * open stream keeps it, and thousands are open at once.
 */
class RelayOutcome extends StreamedText implements StreamOutcome {
  usage?: Usage;
  firstResponseMs = -1;
  end: StreamEnd = "eof";
}

/**
 * A relayed stream's events as they come, read for two sides: the bytes the client gets for them (a usage-only
 * chunk it did not ask for left out, a counted one added before [DONE] when it asked and the upstream sent none),
 * and what billing keeps (the upstream's usage report, else the generated text, and when the first event came).
 */
export class StreamEvents {
  private readonly splitter = new SseSplitter();
  readonly outcome: RelayOutcome;
  /** Whether the events last taken held the stream's end marker. */
  sawDone = false;

  constructor(private readonly options: StreamOptions) {
    this.outcome = new RelayOutcome(options.kind);
  }

  /** The bytes to forward for one read: its whole events (what remains buffered, at the end). Sets `sawDone`. */
  take(result: ReadableStreamReadResult<Uint8Array>): string {
    return this.bytesFor(result.done ? this.splitter.rest() : this.splitter.push(result.value));
  }

  /**
   * The bytes to forward for a chunk (`source` from `start` to before `end`), as `take`. When the chunk is exactly
   * its events and all of them go to the client as they came (the usual chunk), that is the chunk's own bytes:
   * as its text when all of it is ASCII (the text is the bytes: no Buffer is made), else as a Buffer (no text is
   * encoded again).
   */
  takeChunk(source: Buffer, start: number, end: number): string | Uint8Array {
    const plain = this.plainChunk(source, start, end);
    if (plain !== undefined) return plain;
    const events = this.splitter.push(source, start, end);
    const whole = this.splitter.takeWhole();
    const out = this.forwarded(events);
    if (out !== undefined) return out;
    if (this.splitter.asIs && whole!.length !== end - start) return partOf(source, start, end);
    return whole ?? events.map(withBlankLine).join("");
  }

  /**
   * The usual chunk read in its bytes: one `data: ` event of a chat chunk whose text plainChatText reads, no usage
   * in it, nothing buffered before it, valid UTF-8. Its text is kept from the bytes, and the chunk goes to the
   * client as it came: as its text when all of it is ASCII (a copy, not a decoding), else as a Buffer. Splitting it
   * into events and slicing out their data and text cost a stream a few strings a chunk. Undefined, with nothing
   * taken, for any other chunk: the splitter reads it.
   */
  private plainChunk(source: Buffer, start: number, end: number): string | Uint8Array | undefined {
    const { outcome } = this;
    if (outcome.usage || !outcome.keepsPlainText || !this.splitter.idle) return undefined;
    const data = oneDataLine(source, start, end);
    if (data < 0) return undefined;
    const dataEnd = end - 2;
    const usageAt = source.indexOf(USAGE_KEY, data);
    if (usageAt >= 0 && usageAt < dataEnd) return undefined;
    const textStart = plainChatTextIn(source, data, dataEnd);
    const encoding = textStart >= 0 && encodingOf(source, start, end);
    if (!encoding || encoding === "invalid") return undefined;
    this.sawDone = false;
    if (outcome.firstResponseMs < 0) outcome.firstResponseMs = Date.now() - this.options.startedAt;
    outcome.keepText(source, textStart, plainChatTextEnd(source, textStart));
    return encoding === "ascii" ? source.toString("latin1", start, end) : partOf(source, start, end);
  }

  /** The bytes to forward for whole events already as text (a mapped stream's), as `take`. */
  takeText(text: string): string {
    return this.bytesFor(this.splitter.pushText(text));
  }

  /** The bytes for the events the splitter just gave: the pushed text itself when they all go as they came. */
  private bytesFor(events: string[]): string {
    const whole = this.splitter.takeWhole();
    return this.forwarded(events) ?? whole ?? events.map(withBlankLine).join("");
  }

  /** The bytes for what remains buffered when the stream ends. */
  takeRest(): string {
    return this.take(END);
  }

  /** The events' bytes when one of them is not forwarded as it came; undefined when all are. */
  private forwarded(events: string[]): string | undefined {
    this.sawDone = false;
    // Built only from the first event that is not forwarded as it came: most reads are forwarded whole, as decoded.
    let out: string | undefined;
    for (let i = 0; i < events.length; i++) {
      const answer = this.takeEvent(events[i]!);
      if (answer === AS_IS) {
        if (out !== undefined) out += `${events[i]}\n\n`;
        continue;
      }
      out ??= events.slice(0, i).map(withBlankLine).join("");
      out += answer;
    }
    return out;
  }

  /** One event: noted for billing, and answered as the bytes the client gets for it (AS_IS: the event itself). */
  private takeEvent(event: string): string | typeof AS_IS {
    const data = eventData(event);
    if (data === undefined) return "";
    const { outcome } = this;
    if (outcome.firstResponseMs < 0) outcome.firstResponseMs = Date.now() - this.options.startedAt;
    if (isDone(data)) {
      this.sawDone = true;
      return this.endMarker();
    }
    if (!outcome.usage) outcome.keep(data);
    return data.includes('"usage"') && USAGE_MARK.test(data) ? this.takeUsage(data) : AS_IS;
  }

  /** An event that may carry the upstream's usage report: kept for billing; a usage-only chunk the client did not ask for is dropped. */
  private takeUsage(data: string): string | typeof AS_IS {
    let parsed: any;
    try {
      parsed = JSON.parse(data);
    } catch {
      return AS_IS;
    }
    const usage = streamedUsage(this.options.kind, parsed);
    if (!usage) return AS_IS;
    this.outcome.usage = usage;
    this.outcome.forget();
    const usageOnly = Array.isArray(parsed.choices) && parsed.choices.length === 0;
    return usageOnly && !this.options.clientWantsUsage ? "" : AS_IS;
  }

  /** [DONE], preceded by a counted usage chunk when the client asked for usage and the upstream sent none. */
  private endMarker(): string {
    const { options, outcome } = this;
    if (!options.clientWantsUsage || outcome.usage || options.kind === "responses") return DONE_EVENT;
    const usage = usageJson(options.synthesizeUsage(outcome));
    return `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [], usage })}\n\n${DONE_EVENT}`;
  }
}
