import type { ChatCompletion } from "./chat-types";
import {
  callItem,
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

/** A pivot chat completion → the Responses `response` object answering the request in `context`. */
export function chatToResponse(completion: ChatCompletion, context: ResponsesContext) {
  const choice = completion.choices?.[0];
  const message = choice?.message ?? {};
  const output: Item[] = [];
  if (message.reasoning_content) output.push(reasoningItem(newId("rs"), message.reasoning_content));
  const content: Item[] = [];
  if (message.content) content.push(outputText(message.content));
  if (message.refusal) content.push({ type: "refusal", refusal: message.refusal });
  if (content.length > 0) output.push(messageItem(newId("msg"), "completed", content));
  for (const call of message.tool_calls ?? []) {
    output.push(callItem(newId("fc"), "completed", { id: call.id, ...call.function }, context.toolNames));
  }
  return responseObject(context, {
    id: newId("resp"),
    createdAt: completion.created ?? Math.floor(Date.now() / 1000),
    model: completion.model,
    ...statusOf(choice?.finish_reason),
    output,
    usage: responsesUsage(completion.usage),
  });
}
