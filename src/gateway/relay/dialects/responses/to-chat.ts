import { invalidRequest } from "../../../../shared/relay-error";
import type { ChatRequest } from "./chat-types";
import { inputMessages } from "./input";
import { type ToolNameMap, ToolNames } from "./tool-names";
import { translateToolChoice, translateTools } from "./tools";

/** A Responses request body, as the caller sent it (checked field by field where it is read). */
export type ResponsesRequest = Record<string, any>;

/** What translating a Responses request gives: the chat call, and what the reply's translation needs back. */
export interface TranslatedRequest {
  chat: ChatRequest;
  /** Responses tool types left out of the chat call (web_search, file_search…), for the log row. */
  hostedTools: string[];
  /** Chat function name → the Responses tool it stands for, to name the model's calls back. */
  toolNames: ToolNameMap;
}

/** Parameters that need state kept by OpenAI (a translated call has none): refused, naming the parameter. */
const STATEFUL = ["previous_response_id", "conversation", "prompt"] as const;

/** Same name, same meaning in chat completions: passed on as they are. */
const PASSED_ON = ["temperature", "top_p", "user", "service_tier", "prompt_cache_key"] as const;

/*
 * Read deliberately and not passed on: `store` (nothing is stored: replies say store false), `metadata` (echoed in
 * the reply only), `include` (no encrypted reasoning or hosted-tool results to include), `truncation` (the
 * upstream's own context limit applies), `reasoning.summary` (the thinking text, when the upstream gives one,
 * is always returned as a summary), `safety_identifier`, `max_tool_calls`, `top_logprobs`, `stream_options`.
 */

function refuseStateful(request: ResponsesRequest): void {
  for (const parameter of STATEFUL) {
    if (request[parameter] !== undefined && request[parameter] !== null) {
      throw invalidRequest(
        `${parameter} is not supported on this channel: its upstream serves chat completions, so no earlier response or stored state exists; send the whole conversation in input`,
        "unsupported_parameter",
      );
    }
  }
  if (request.background === true) {
    throw invalidRequest(
      "background is not supported on this channel: its upstream serves chat completions",
      "unsupported_parameter",
    );
  }
}

function responseFormat(format: any): unknown {
  if (!format || format.type === "text") return undefined;
  if (format.type === "json_object") return { type: "json_object" };
  if (format.type === "json_schema") {
    const { type: _type, ...schema } = format;
    return { type: "json_schema", json_schema: schema };
  }
  throw invalidRequest(`text.format.type ${JSON.stringify(format.type)} is not supported`);
}

function instructionMessages(instructions: unknown, names: ToolNames) {
  if (instructions === undefined || instructions === null || instructions === "") return [];
  if (typeof instructions === "string") return [{ role: "system" as const, content: instructions }];
  return inputMessages(instructions, names);
}

/** A Responses request → the pivot chat-completions request (throws a 400 naming what cannot be translated). */
export function responsesToChat(request: ResponsesRequest): TranslatedRequest {
  if (typeof request?.model !== "string" || !request.model) throw invalidRequest("model is required");
  if (request.input === undefined || request.input === null) throw invalidRequest("input is required");
  refuseStateful(request);
  const names = new ToolNames();
  const { tools, hostedTools } = translateTools(request.tools, names);
  const messages = [...instructionMessages(request.instructions, names), ...inputMessages(request.input, names)];
  const chat: ChatRequest = { model: request.model, messages };
  for (const parameter of PASSED_ON) if (request[parameter] !== undefined) chat[parameter] = request[parameter];
  if (tools.length > 0) {
    chat.tools = tools;
    const toolChoice = translateToolChoice(request.tool_choice, names, tools);
    if (toolChoice !== undefined) chat.tool_choice = toolChoice;
    if (typeof request.parallel_tool_calls === "boolean") chat.parallel_tool_calls = request.parallel_tool_calls;
  }
  const format = responseFormat(request.text?.format);
  if (format) chat.response_format = format;
  if (request.text?.verbosity) chat.verbosity = request.text.verbosity;
  if (request.reasoning?.effort) chat.reasoning_effort = request.reasoning.effort;
  if (request.max_output_tokens !== undefined && request.max_output_tokens !== null) {
    chat.max_tokens = request.max_output_tokens;
  }
  if (request.stream === true) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return { chat, hostedTools, toolNames: names.map };
}
