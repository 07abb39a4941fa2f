import { jsonText } from "../../../../shared/json-text";
import { asWritten, type StreamWording } from "../../../../shared/stream-wording";
import { eventData, SseSplitter } from "../../sse";
import type { PivotEvent, WholePivot } from "../types";
import { geminiErrorBody } from "./errors";
import type { PivotChunk, PivotToolCallDelta, PivotUsage } from "./pivot";
import { finishReasonOf, functionCallPart, usageMetadataOf } from "./reply-parts";

/** `sse` for `?alt=sse` (one `data:` event per response), `json-array` for Gemini's default streamed JSON array. */
export type GeminiStreamForm = "sse" | "json-array";

/** The form a streamGenerateContent call asked for, and the content type that goes with it. */
export function streamFormOf(url: URL): { form: GeminiStreamForm; contentType: string } {
  let form = forms.get(url);
  if (!form) forms.set(url, (form = altIsSse(url.search) ? SSE_FORM : JSON_ARRAY_FORM));
  return form;
}

/** A call's form is asked for twice (content type, stream); reading the URL's query costs more than this. */
const forms = new WeakMap<URL, typeof SSE_FORM | typeof JSON_ARRAY_FORM>();

const SSE_FORM = { form: "sse", contentType: "text/event-stream" } as const;
const JSON_ARRAY_FORM = { form: "json-array", contentType: "application/json" } as const;

/** `?alt=sse`, read without building the URL's search parameters for the usual queries. */
function altIsSse(search: string): boolean {
  if (search === "?alt=sse") return true;
  if (!search.includes("alt") && !search.includes("%")) return false;
  return new URLSearchParams(search).get("alt") === "sse";
}

export interface GeminiStreamOptions {
  form: GeminiStreamForm;
  includeThoughts: boolean;
  model: string;
  /** How the errors the translator writes itself are worded; absent: as written. */
  wording?: StreamWording;
}

interface PendingCall {
  id?: string;
  name: string;
  args: string;
}

/** What one candidate (a pivot choice) has said that waits for its finishing response. */
interface PendingCandidate {
  calls: Map<number, PendingCall>;
  finish: string | null;
}

/**
 * Turns a pivot chunk stream (OpenAI SSE bytes) into Gemini's stream, chunk by chunk; each pivot choice is the
 * candidate of its index. Gemini sends function calls whole, so argument deltas are gathered and the calls sent
 * with the finishing response; that response waits for the usage chunk that follows it, so usageMetadata rides
 * on the last response.
 */
export class GeminiStreamTranslator {
  /** Made for the first pivot bytes: a stream that arrived whole comes as events already parsed. */
  private splitter?: SseSplitter;
  private readonly pending = new Map<number, PendingCandidate>();
  private finished = false;
  private usage: PivotUsage | null = null;
  private responseId: string | undefined;
  private modelVersion: string;
  /** The responses' closing fields as JSON text, written again only when the model or id changes (`tailOf`). */
  private tail = "";
  /** `tail` after a one-text candidate's closing fields (see `textTail`), written with it. */
  private tailAfterText = "";
  private tailOf: [unknown, unknown] = [undefined, undefined];
  private sent = 0;
  private ended = false;
  private readonly wording: StreamWording;

  constructor(private readonly options: GeminiStreamOptions) {
    this.modelVersion = options.model;
    this.wording = options.wording ?? asWritten;
  }

  /** The Gemini output for one network chunk of the pivot stream ("" when it completes no response). */
  push(bytes: Uint8Array): string {
    this.splitter ??= new SseSplitter();
    return this.onEvents(this.splitter.push(bytes));
  }

  /** The Gemini output for pivot events already parsed (a whole stream a provider wrote). */
  pushParsed(events: readonly PivotEvent[]): string {
    let out = "";
    for (const event of events) out += this.onPivot(event);
    return out;
  }

  /** The rest of the output once the pivot stream has ended (the finishing response and, for arrays, the `]`). */
  end(): string {
    let out = this.splitter ? this.onEvents(this.splitter.rest()) : "";
    out += this.flushFinish();
    if (this.ended) return out;
    this.ended = true;
    if (this.options.form === "json-array") out += this.sent ? "]" : "[]";
    return out;
  }

  private onEvents(events: string[]): string {
    let out = "";
    for (const event of events) out += this.onEvent(event);
    return out;
  }

  private onEvent(event: string): string {
    const data = eventData(event);
    if (data === undefined || this.ended) return "";
    if (data.trim() === "[DONE]") return this.flushFinish();
    let chunk: PivotChunk;
    try {
      chunk = JSON.parse(data);
    } catch {
      return "";
    }
    return this.onChunk(chunk);
  }

  private onPivot(event: PivotEvent): string {
    if (this.ended) return "";
    return event === "[DONE]" ? this.flushFinish() : this.onChunk(event as PivotChunk);
  }

  private onChunk(chunk: PivotChunk): string {
    if (chunk.error)
      return this.write(
        JSON.stringify(geminiErrorBody(500, chunk.error.message ?? this.wording("the upstream stream failed"))),
      );
    if (chunk.id) this.responseId = chunk.id;
    if (chunk.model) this.modelVersion = chunk.model;
    const text = this.onlyText(chunk);
    if (text !== undefined) return this.write(TEXT_RESPONSE_HEAD + jsonText(text) + this.textTail());
    let out = "";
    let candidates = "";
    for (const choice of chunk.choices ?? []) {
      const index = choice.index ?? 0;
      const delta = choice.delta ?? {};
      const parts = textParts(this.options.includeThoughts ? delta.reasoning_content : undefined, delta.content);
      if (parts) candidates += `${candidates && ","}${candidateText(index, parts)}`;
      if (delta.tool_calls?.length || choice.finish_reason) {
        const pending = this.pendingOf(index);
        for (const call of delta.tool_calls ?? []) gather(pending.calls, call);
        if (choice.finish_reason) {
          pending.finish = choice.finish_reason;
          this.finished = true;
        }
      }
    }
    if (candidates) out += this.response(candidates);
    if (chunk.usage) {
      this.usage = chunk.usage;
      if (this.finished) out += this.flushFinish();
    }
    return out;
  }

  /**
   * The text of a chunk that is one candidate's text alone (no thoughts to send, no calls, no finish, no usage), the
   * usual chunk: its response is the text between a fixed head and a tail written once per model and id.
   */
  private onlyText(chunk: PivotChunk): string | undefined {
    const choices = chunk.choices;
    if (chunk.usage || choices?.length !== 1) return undefined;
    const [choice] = choices;
    const delta = choice!.delta;
    if ((choice!.index ?? 0) !== 0 || choice!.finish_reason || !delta?.content || delta.tool_calls?.length)
      return undefined;
    if (this.options.includeThoughts && delta.reasoning_content) return undefined;
    return delta.content;
  }

  /** What follows a text response's text: the candidate's closing fields and the response's (see `closing`). */
  private textTail(): string {
    this.closing();
    return this.tailAfterText;
  }

  private pendingOf(index: number): PendingCandidate {
    let pending = this.pending.get(index);
    if (!pending) this.pending.set(index, (pending = { calls: new Map(), finish: null }));
    return pending;
  }

  /** The finishing response (whole function calls, finishReason, usage), once the stream has said it is finished. */
  private flushFinish(): string {
    if (!this.pending.size && !this.usage) return "";
    if (!this.pending.size) this.pendingOf(0);
    const candidates = [...this.pending.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, { calls, finish }]) => {
        const parts = [...calls.entries()]
          .sort(([a], [b]) => a - b)
          .map(([, call]) => JSON.stringify(functionCallPart(call.id, call.name, call.args)));
        return candidateText(index, parts.join(","), finish ?? "stop");
      });
    const out = this.response(candidates.join(","), this.usage);
    this.pending.clear();
    this.finished = false;
    this.usage = null;
    return out;
  }

  /** A response of candidates given as their JSON text, written field by field in Gemini's order. */
  private response(candidates: string, usage?: PivotUsage | null): string {
    let body = `{"candidates":[${candidates}]`;
    if (usage) body += `,"usageMetadata":${countsText(usageMetadataOf(usage))}`;
    return this.write(body + this.closing());
  }

  private closing(): string {
    const { modelVersion, responseId, tailOf } = this;
    if (tailOf[0] === modelVersion && tailOf[1] === responseId && this.tail) return this.tail;
    this.tailOf = [modelVersion, responseId];
    let tail = modelVersion !== undefined ? `,"modelVersion":${jsonText(modelVersion)}` : "";
    if (responseId) tail += `,"responseId":${jsonText(responseId)}`;
    this.tail = `${tail}}`;
    this.tailAfterText = `${TEXT_CANDIDATE_END}${this.tail}`;
    return this.tail;
  }

  private write(json: string): string {
    this.sent++;
    if (this.options.form === "sse") return `data: ${json}\r\n\r\n`;
    return this.sent === 1 ? `[${json}` : `,\r\n${json}`;
  }
}

/** A response of candidate 0's one text part, up to the text (`candidateText`'s fields, in its order). */
const TEXT_RESPONSE_HEAD = '{"candidates":[{"content":{"role":"model","parts":[{"text":';
/** What follows that text up to the response's own closing fields. */
const TEXT_CANDIDATE_END = '}]},"index":0}]';

/** A candidate as JSON text, its parts given as JSON text (`candidate`'s fields, in its order). */
function candidateText(index: unknown, parts: string, finish?: string | null): string {
  const reason = finish ? `,"finishReason":${jsonText(finishReasonOf(finish))}` : "";
  return `{"content":{"role":"model","parts":[${parts}]}${reason},"index":${jsonText(index)}}`;
}

/** An object of token counts (whole numbers) as JSON text. */
function countsText(counts: Record<string, number>): string {
  let out = "";
  for (const key in counts) out += `${out && ","}"${key}":${counts[key]}`;
  return `{${out}}`;
}

/** The text parts of a delta as JSON text (thoughts first), "" for none. */
function textParts(thought: unknown, text: unknown): string {
  const thoughtPart = thought ? `{"text":${jsonText(thought)},"thought":true}` : "";
  if (!text) return thoughtPart;
  return `${thoughtPart && `${thoughtPart},`}{"text":${jsonText(text)}}`;
}

function gather(calls: Map<number, PendingCall>, call: PivotToolCallDelta) {
  const index = call.index ?? calls.size;
  const pending = calls.get(index) ?? { name: "", args: "" };
  if (call.id) pending.id = call.id;
  if (call.function?.name) pending.name += call.function.name;
  if (call.function?.arguments) pending.args += call.function.arguments;
  calls.set(index, pending);
}

/** What `geminiStream` sends for a pivot stream that arrived whole, translated at once. */
export function wholeGeminiStream(pivot: WholePivot, options: GeminiStreamOptions): string {
  const translator = new GeminiStreamTranslator(options);
  return (pivot.events ? translator.pushParsed(pivot.events) : translator.push(pivot.bytes)) + translator.end();
}

/** The translation as a byte stream transform, for a pivot stream body. */
export function geminiStream(
  pivot: ReadableStream<Uint8Array>,
  options: GeminiStreamOptions,
): ReadableStream<Uint8Array> {
  const translator = new GeminiStreamTranslator(options);
  const encoder = new TextEncoder();
  return pivot.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const out = translator.push(chunk);
        if (out) controller.enqueue(encoder.encode(out));
      },
      flush(controller) {
        const out = translator.end();
        if (out) controller.enqueue(encoder.encode(out));
      },
    }),
  );
}
