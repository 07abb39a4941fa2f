import { invalidRequest } from "../../../../shared/relay-error";
import { messagesOf, systemTextOf } from "./messages";
import type { PivotMessage, PivotRequest } from "./pivot";
import type { GeminiRequest } from "./request";
import { samplingOf } from "./generation-config";
import { toolsOf } from "./tools";

export interface GeminiTranslation {
  chat: PivotRequest;
  /** generationConfig.thinkingConfig.includeThoughts: whether the reply carries the thinking as thought parts. */
  includeThoughts: boolean;
  /** Google-hosted tools left out of the call, to be named in the log row. */
  droppedTools: string[];
}

/** A Gemini generateContent request for `model` (from the path) as the pivot chat request. */
export function geminiToChat(body: GeminiRequest, options: { model: string; stream: boolean }): GeminiTranslation {
  if (!body || typeof body !== "object") throw invalidRequest("the request body must be a JSON object");
  if (!Array.isArray(body.contents) || !body.contents.length)
    throw invalidRequest("contents must be a non-empty array");
  if (body.cachedContent) throw invalidRequest("cachedContent is not supported: send the content itself");
  const system = systemTextOf(body.systemInstruction);
  const messages: PivotMessage[] = messagesOf(body.contents);
  if (system) messages.unshift({ role: "system", content: system });
  const { tools, tool_choice, dropped } = toolsOf(body);
  // Built field by field (in the order the upstream body lists them): this runs on every Gemini call.
  const chat: PivotRequest = Object.assign({ model: options.model, messages }, samplingOf(body.generationConfig));
  if (tools) chat.tools = tools;
  if (tool_choice !== undefined) chat.tool_choice = tool_choice;
  if (options.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return {
    chat,
    includeThoughts: body.generationConfig?.thinkingConfig?.includeThoughts === true,
    droppedTools: dropped,
  };
}
