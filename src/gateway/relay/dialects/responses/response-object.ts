import type { ChatUsage } from "./chat-types";
import type { ResponsesRequest } from "./to-chat";
import { originOf, type ToolNameMap } from "./tool-names";

/** What a Responses reply needs from the request it answers. */
export interface ResponsesContext {
  request: ResponsesRequest;
  toolNames: ToolNameMap;
}

export type Item = Record<string, any>;

/** An id in OpenAI's style: a type prefix and random hex (resp_…, msg_…, fc_…, rs_…). */
export const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;

export function responsesUsage(usage: ChatUsage | null | undefined) {
  if (!usage) return null;
  const input = usage.prompt_tokens ?? 0;
  const output = usage.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
      cache_write_tokens: usage.prompt_tokens_details?.cached_creation_tokens ?? 0,
    },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens ?? input + output,
  };
}

/** A chat finish_reason → the response's status and why it is incomplete. */
export function statusOf(finishReason: string | null | undefined) {
  if (finishReason === "length") return { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } };
  if (finishReason === "content_filter") {
    return { status: "incomplete", incomplete_details: { reason: "content_filter" } };
  }
  return { status: "completed", incomplete_details: null };
}

export const reasoningItem = (id: string, text: string): Item => ({
  id,
  type: "reasoning",
  summary: text ? [{ type: "summary_text", text }] : [],
});

export const outputText = (text: string): Item => ({ type: "output_text", text, annotations: [], logprobs: [] });

export const messageItem = (id: string, status: string, content: Item[]): Item => ({
  id,
  type: "message",
  role: "assistant",
  status,
  content,
});

/** A model's tool call as the Responses item of the tool the caller offered: function_call or custom_tool_call. */
export function callItem(
  id: string,
  status: string,
  call: { id: string; name: string; arguments: string },
  toolNames: ToolNameMap,
): Item {
  const origin = originOf(toolNames, call.name);
  const namespace = origin.namespace ? { namespace: origin.namespace } : {};
  if (origin.kind === "custom") {
    return {
      id,
      type: "custom_tool_call",
      status,
      call_id: call.id,
      name: origin.name,
      input: customInput(call.arguments),
      ...namespace,
    };
  }
  return {
    id,
    type: "function_call",
    status,
    call_id: call.id,
    name: origin.name,
    arguments: call.arguments,
    ...namespace,
  };
}

/** A custom tool's free-form input, from the `{"input": …}` arguments its chat function was given. */
export function customInput(args: string): string {
  try {
    const parsed = JSON.parse(args);
    return typeof parsed?.input === "string" ? parsed.input : args;
  } catch {
    return args;
  }
}

/** The text of an output's messages, as the SDKs' `output_text` convenience has it. */
export const outputTextOf = (output: Item[]) =>
  output
    .filter((item) => item.type === "message")
    .flatMap((item) => item.content)
    .filter((part: Item) => part.type === "output_text")
    .map((part: Item) => part.text)
    .join("");

/** The response object around an output, echoing the request's settings as OpenAI does. */
export function responseObject(
  context: ResponsesContext,
  fields: {
    id: string;
    createdAt: number;
    model?: string;
    status: string;
    output: Item[];
    usage: unknown;
    incomplete_details?: unknown;
    error?: unknown;
  },
) {
  const request = context.request;
  return {
    id: fields.id,
    object: "response",
    created_at: fields.createdAt,
    status: fields.status,
    error: fields.error ?? null,
    incomplete_details: fields.incomplete_details ?? null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: fields.model ?? request.model,
    output: fields.output,
    output_text: outputTextOf(fields.output),
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    store: false,
    temperature: request.temperature ?? null,
    text: request.text ?? { format: { type: "text" } },
    tool_choice: request.tool_choice ?? "auto",
    tools: request.tools ?? [],
    top_p: request.top_p ?? null,
    truncation: request.truncation ?? "disabled",
    usage: fields.usage,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}
