import { asWritten, type StreamWording } from "../../../../shared/stream-wording";
import type { ChatChunk, ChatToolCallDelta, ChatUsage } from "./chat-types";
import {
  callItem,
  customInput,
  type Item,
  messageItem,
  newId,
  outputText,
  reasoningItem,
  type ResponsesContext,
  responseObject,
  responsesUsage,
  statusOf,
} from "./response-object";
import { originOf } from "./tool-names";

interface OpenText {
  index: number;
  id: string;
  text: string;
}

interface OpenMessage extends OpenText {
  refusal: boolean;
}

const contentPart = (message: OpenMessage): Item =>
  message.refusal ? { type: "refusal", refusal: message.text } : outputText(message.text);

interface OpenCall extends OpenText {
  callId: string;
  name: string;
}

/**
 * Turns the data of a pivot chunk stream, one event at a time, into Responses stream events
 * (`event: <type>\ndata: {…, sequence_number}\n\n`), keeping the output so the last event carries the whole
 * response. Items open when their first delta comes and close when another kind of output starts or the
 * stream ends; tool calls stay open to the end since their argument deltas may interleave.
 */
export class ResponsesStreamWriter {
  private sequence = 0;
  private readonly id = newId("resp");
  private readonly createdAt = Math.floor(Date.now() / 1000);
  private model: string | undefined;
  private readonly output: Item[] = [];
  private reasoning: OpenText | undefined;
  private message: OpenMessage | undefined;
  private readonly calls = new Map<number, OpenCall>();
  private finishReason: string | null | undefined;
  private usage: ChatUsage | null | undefined;
  private ended = false;

  constructor(
    private readonly context: ResponsesContext,
    private readonly wording: StreamWording = asWritten,
  ) {}

  /** The opening events: response.created and response.in_progress. */
  start(): string {
    const response = this.response("in_progress", null);
    return this.event("response.created", { response }) + this.event("response.in_progress", { response });
  }

  /** The events for one pivot event's data (a chunk's JSON or `[DONE]`). */
  push(data: string): string {
    if (this.ended) return "";
    if (data.trim() === "[DONE]") return this.finish();
    let chunk: ChatChunk;
    try {
      chunk = JSON.parse(data);
    } catch {
      return "";
    }
    if (chunk.error)
      return this.fail(chunk.error.message ?? this.wording("the upstream reported an error"), chunk.error.code);
    this.model ??= chunk.model;
    if (chunk.usage) this.usage = chunk.usage;
    let events = "";
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) events += this.reasoningDelta(delta.reasoning_content);
      if (delta.content) events += this.textDelta(delta.content, false);
      if (delta.refusal) events += this.textDelta(delta.refusal, true);
      for (const call of delta.tool_calls ?? []) events += this.callDelta(call);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return events;
  }

  /** The closing events; a stream that ended without a finish reason or [DONE] is reported as failed. */
  end(): string {
    if (this.ended) return "";
    if (this.finishReason === undefined)
      return this.fail(this.wording("the upstream stream ended before the response was complete"));
    return this.finish();
  }

  private finish(): string {
    let events = this.closeReasoning() + this.closeMessage();
    for (const call of [...this.calls.values()].sort((a, b) => a.index - b.index)) events += this.closeCall(call);
    this.calls.clear();
    this.ended = true;
    const { status, incomplete_details } = statusOf(this.finishReason);
    const response = this.response(status, responsesUsage(this.usage), incomplete_details);
    return events + this.event(status === "completed" ? "response.completed" : "response.incomplete", { response });
  }

  private fail(message: string, code?: string | number | null): string {
    this.ended = true;
    const error = { code: code === undefined || code === null ? "server_error" : String(code), message };
    const response = this.response("failed", responsesUsage(this.usage), null, error);
    return this.event("error", { ...error, param: null }) + this.event("response.failed", { response });
  }

  private reasoningDelta(delta: string): string {
    let events = "";
    if (!this.reasoning) {
      events += this.closeMessage();
      this.reasoning = { index: this.output.length, id: newId("rs"), text: "" };
      events += this.added(this.reasoning.index, reasoningItem(this.reasoning.id, ""));
      events += this.event("response.reasoning_summary_part.added", {
        ...this.at(this.reasoning),
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
    }
    this.reasoning.text += delta;
    return (
      events +
      this.event("response.reasoning_summary_text.delta", { ...this.at(this.reasoning), summary_index: 0, delta })
    );
  }

  private closeReasoning(): string {
    const reasoning = this.reasoning;
    if (!reasoning) return "";
    this.reasoning = undefined;
    const where = { ...this.at(reasoning), summary_index: 0 };
    return (
      this.event("response.reasoning_summary_text.done", { ...where, text: reasoning.text }) +
      this.event("response.reasoning_summary_part.done", {
        ...where,
        part: { type: "summary_text", text: reasoning.text },
      }) +
      this.done(reasoning.index, reasoningItem(reasoning.id, reasoning.text))
    );
  }

  /** Text or a refusal: each goes in its own message item, whose one content part is an output_text or a refusal. */
  private textDelta(delta: string, refusal: boolean): string {
    let events = "";
    if (this.message && this.message.refusal !== refusal) events += this.closeMessage();
    if (!this.message) {
      events += this.closeReasoning();
      this.message = { index: this.output.length, id: newId("msg"), text: "", refusal };
      events += this.added(this.message.index, messageItem(this.message.id, "in_progress", []));
      events += this.event("response.content_part.added", {
        ...this.at(this.message),
        content_index: 0,
        part: contentPart(this.message),
      });
    }
    this.message.text += delta;
    const where = { ...this.at(this.message), content_index: 0 };
    if (refusal) return events + this.event("response.refusal.delta", { ...where, delta });
    return events + this.event("response.output_text.delta", { ...where, delta, logprobs: [] });
  }

  private closeMessage(): string {
    const message = this.message;
    if (!message) return "";
    this.message = undefined;
    const where = { ...this.at(message), content_index: 0 };
    const part = contentPart(message);
    const textDone = message.refusal
      ? this.event("response.refusal.done", { ...where, refusal: message.text })
      : this.event("response.output_text.done", { ...where, text: message.text, logprobs: [] });
    return (
      textDone +
      this.event("response.content_part.done", { ...where, part }) +
      this.done(message.index, messageItem(message.id, "completed", [part]))
    );
  }

  private callDelta(delta: ChatToolCallDelta): string {
    let events = "";
    let call = this.calls.get(delta.index);
    if (!call) {
      events += this.closeReasoning() + this.closeMessage();
      call = {
        index: this.output.length,
        id: newId("fc"),
        text: "",
        callId: delta.id ?? newId("call"),
        name: delta.function?.name ?? "",
      };
      this.calls.set(delta.index, call);
      events += this.added(call.index, this.callItemOf(call, "in_progress", ""));
    }
    const args = delta.function?.arguments;
    if (!args) return events;
    call.text += args;
    // A custom tool's input is the `input` string inside these arguments: it is sent whole when the call closes.
    if (this.isCustom(call)) return events;
    return events + this.event("response.function_call_arguments.delta", { ...this.at(call), delta: args });
  }

  private closeCall(call: OpenCall): string {
    if (this.isCustom(call)) {
      const input = customInput(call.text);
      return (
        this.event("response.custom_tool_call_input.delta", { ...this.at(call), delta: input }) +
        this.event("response.custom_tool_call_input.done", { ...this.at(call), input }) +
        this.done(call.index, this.callItemOf(call, "completed", call.text))
      );
    }
    return (
      this.event("response.function_call_arguments.done", { ...this.at(call), arguments: call.text }) +
      this.done(call.index, this.callItemOf(call, "completed", call.text))
    );
  }

  private isCustom(call: OpenCall): boolean {
    return originOf(this.context.toolNames, call.name).kind === "custom";
  }

  private callItemOf(call: OpenCall, status: string, args: string): Item {
    return callItem(call.id, status, { id: call.callId, name: call.name, arguments: args }, this.context.toolNames);
  }

  private at(item: OpenText) {
    return { item_id: item.id, output_index: item.index };
  }

  private added(index: number, item: Item): string {
    this.output[index] = item;
    return this.event("response.output_item.added", { output_index: index, item });
  }

  private done(index: number, item: Item): string {
    this.output[index] = item;
    return this.event("response.output_item.done", { output_index: index, item });
  }

  private response(status: string, usage: unknown, incomplete_details?: unknown, error?: unknown) {
    return responseObject(this.context, {
      id: this.id,
      createdAt: this.createdAt,
      model: this.model,
      status,
      output: [...this.output],
      usage,
      incomplete_details,
      error,
    });
  }

  private event(type: string, fields: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...fields })}\n\n`;
  }
}
