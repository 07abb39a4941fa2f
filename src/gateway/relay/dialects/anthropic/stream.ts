import { jsonText } from "../../../../shared/json-text";
import { asWritten, type StreamWording } from "../../../../shared/stream-wording";
import { eventData, SseSplitter } from "../../sse";
import type { WholePivot } from "../types";
import { messageIdOf, stopReasonOf } from "./stop-reason";
import { anthropicUsage } from "./usage";

const encoder = new TextEncoder();
/** The event as `{type, ...value}` would serialize, without copying value. */
function sse(type: string, value: Record<string, unknown>): string {
  const fields = JSON.stringify(value);
  const rest = fields === "{}" ? "}" : `,${fields.slice(1)}`;
  return `event: ${type}\ndata: {"type":"${type}"${rest}\n\n`;
}

/** The events sent once per block or per delta, written from their fields (the same text `sse` writes). */
const blockStop = (index: number) =>
  `event: content_block_stop\ndata: {"type":"content_block_stop","index":${index}}\n\n`;
const blockDelta = (index: number, delta: string) =>
  `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":${delta}}\n\n`;
const DELTA_FIELD = { text: "text_delta", thinking: "thinking_delta" } as const;
const MESSAGE_STOP = sse("message_stop", {});

type BlockKind = "text" | "thinking" | "tool_use";

/**
 * Writes Anthropic's events for a pivot chunk stream: message_start on the first chunk; a content block per
 * run of text, thinking or one tool call (started, its deltas, stopped); message_delta with the stop reason and
 * usage, then message_stop, at [DONE].
 */
class MessageEvents {
  private started = false;
  private finished = false;
  private block: BlockKind | undefined = undefined;
  private index = -1;
  /** The pivot's tool call index → its content block index. */
  private readonly toolBlocks = new Map<number, number>();
  private stopReason = "end_turn";
  private usage: unknown = undefined;

  constructor(
    private readonly model: string,
    private readonly wording: StreamWording,
  ) {}

  private start(id: unknown): string {
    if (this.started) return "";
    this.started = true;
    const message = `{"id":${jsonText(messageIdOf(id))},"type":"message","role":"assistant","model":${jsonText(this.model)},"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}`;
    return `event: message_start\ndata: {"type":"message_start","message":${message}}\n\n`;
  }

  private closeBlock(): string {
    if (this.block === undefined) return "";
    this.block = undefined;
    return blockStop(this.index);
  }

  /** A new block, `contentBlock` its JSON text. */
  private openBlock(kind: BlockKind, contentBlock: string): string {
    const out = this.closeBlock();
    this.block = kind;
    this.index++;
    return `${out}event: content_block_start\ndata: {"type":"content_block_start","index":${this.index},"content_block":${contentBlock}}\n\n`;
  }

  private delta(kind: "text" | "thinking", text: string): string {
    const open = this.block === kind ? "" : this.openBlock(kind, `{"type":"${kind}","${kind}":""}`);
    const delta = `{"type":"${DELTA_FIELD[kind]}","${kind}":${jsonText(text)}}`;
    return `${open}${blockDelta(this.index, delta)}`;
  }

  private toolDelta(call: any): string {
    const at = typeof call?.index === "number" ? call.index : 0;
    let out = "";
    if (!this.toolBlocks.has(at)) {
      const id = jsonText(String(call?.id ?? ""));
      const name = jsonText(String(call?.function?.name ?? ""));
      out += this.openBlock("tool_use", `{"type":"tool_use","id":${id},"name":${name},"input":{}}`);
      this.toolBlocks.set(at, this.index);
    }
    const args = call?.function?.arguments;
    if (typeof args === "string" && args) {
      out += blockDelta(this.toolBlocks.get(at)!, `{"type":"input_json_delta","partial_json":${jsonText(args)}}`);
    }
    return out;
  }

  /** One pivot chunk's data. */
  chunk(data: string): string {
    if (data.trim() === "[DONE]") return this.end();
    let chunk: any;
    try {
      chunk = JSON.parse(data);
    } catch {
      return "";
    }
    return this.event(chunk);
  }

  /** One pivot event, already an object. */
  event(chunk: any): string {
    if (chunk === "[DONE]") return this.end();
    if (chunk?.error) return this.error(String(chunk.error.message ?? this.wording("upstream stream error")));
    let out = this.start(chunk?.id);
    if (chunk?.usage) this.usage = chunk.usage;
    const choice = Array.isArray(chunk?.choices) ? chunk.choices[0] : undefined;
    const delta = choice?.delta;
    if (typeof delta?.reasoning_content === "string" && delta.reasoning_content)
      out += this.delta("thinking", delta.reasoning_content);
    if (typeof delta?.content === "string" && delta.content) out += this.delta("text", delta.content);
    if (Array.isArray(delta?.tool_calls)) for (const call of delta.tool_calls) out += this.toolDelta(call);
    if (choice?.finish_reason) this.stopReason = stopReasonOf(choice.finish_reason);
    return out;
  }

  /** The pivot's end marker: the open block closed, the stop reason and usage, message_stop. */
  private end(): string {
    if (this.finished) return "";
    this.finished = true;
    const out = this.start(undefined) + this.closeBlock();
    const messageDelta = sse("message_delta", {
      delta: { stop_reason: this.stopReason, stop_sequence: null },
      usage: anthropicUsage(this.usage),
    });
    return `${out}${messageDelta}${MESSAGE_STOP}`;
  }

  error(message: string): string {
    if (this.finished) return "";
    this.finished = true;
    return sse("error", { error: { type: "api_error", message } });
  }

  /** The pivot stream ended: without [DONE] it broke off upstream, which the client is told. */
  close(): string {
    return this.finished ? "" : this.error(this.wording("the upstream stream ended before the reply was complete"));
  }
}

const PING = sse("ping", {});

/** Anthropic's events for a run of pivot SSE events (`: comment` pings become ping events). */
function translate(events: string[], writer: MessageEvents): string {
  let out = "";
  for (const event of events) {
    const data = eventData(event);
    out += data === undefined ? (event.startsWith(":") ? PING : "") : writer.chunk(data);
  }
  return out;
}

/** What `chatStreamToAnthropic` sends for a pivot stream that arrived whole, translated at once. */
export function wholeChatStreamToAnthropic(pivot: WholePivot, model: string, wording = asWritten): string {
  const events = new MessageEvents(model, wording);
  if (pivot.events) {
    let out = "";
    for (const event of pivot.events) out += events.event(event);
    return out + events.close();
  }
  const splitter = new SseSplitter();
  return translate(splitter.push(pivot.bytes), events) + translate(splitter.rest(), events) + events.close();
}

/** A pivot chunk stream as Anthropic's Messages event stream (pings kept as Anthropic ping events). */
export function chatStreamToAnthropic(
  pivot: ReadableStream<Uint8Array>,
  model: string,
  wording = asWritten,
): ReadableStream<Uint8Array> {
  const reader = pivot.getReader();
  const splitter = new SseSplitter();
  const events = new MessageEvents(model, wording);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        let read: Awaited<ReturnType<typeof reader.read>>;
        try {
          read = await reader.read();
        } catch {
          controller.enqueue(encoder.encode(events.close()));
          return controller.close();
        }
        let out = translate(read.done ? splitter.rest() : splitter.push(read.value), events);
        if (read.done) out += events.close();
        if (out) controller.enqueue(encoder.encode(out));
        if (read.done) return controller.close();
        if (out) return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
