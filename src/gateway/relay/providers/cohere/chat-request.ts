import { invalidRequest } from "../../../../shared/relay-error";
import { chatTurns, type Part } from "../chat-messages";
import { toolChoiceOf, toolsOf } from "../chat-tools";
import { isNumber, stopList, tokenCount } from "../openai-shape";
import { responseFormatOf } from "../response-format";
import { refuseSeveralChoices, refuseUntranslatable } from "../untranslatable";

const FAMILY = "Cohere";

function contentPart(p: Part): object {
  if ("text" in p) return { type: "text", text: p.text };
  if ("image" in p)
    return { type: "image_url", image_url: { url: `data:${p.image.mediaType};base64,${p.image.data}` } };
  if ("imageUrl" in p) return { type: "image_url", image_url: { url: p.imageUrl } };
  throw invalidRequest("tool calls and tool answers belong in their own messages");
}

const isToolResult = (p: Part) => "toolResult" in p;
const isToolCall = (p: Part) => "toolCall" in p;

/** Cohere v2 messages: OpenAI's roles, tool calls on the assistant turn, one "tool" message per answer. */
function messagesOf(body: Record<string, any>): object[] {
  const { system, turns } = chatTurns(body, FAMILY);
  const messages: object[] = system ? [{ role: "system", content: system }] : [];
  for (const turn of turns) {
    if (turn.parts.length && turn.parts.every(isToolResult)) {
      for (const p of turn.parts)
        if ("toolResult" in p)
          messages.push({ role: "tool", tool_call_id: p.toolResult.id, content: p.toolResult.content });
      continue;
    }
    const calls = turn.parts.filter(isToolCall).flatMap((p) => ("toolCall" in p ? [p.toolCall] : []));
    const content = turn.parts.filter((p) => !isToolCall(p)).map(contentPart);
    const onlyText = content.length === 1 && (content[0] as any).type === "text";
    messages.push({
      role: turn.role,
      ...(content.length && { content: onlyText ? (content[0] as any).text : content }),
      ...(calls.length && {
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: JSON.stringify(c.input) },
        })),
      }),
    });
  }
  return messages;
}

function toolChoice(body: Record<string, any>): string | undefined {
  const choice = toolChoiceOf(body);
  if (choice === undefined || choice === "auto") return undefined;
  if (choice === "none") return "NONE";
  if (choice === "required") return "REQUIRED";
  throw invalidRequest(
    'tool_choice naming one function is not supported on Cohere channels (use "required")',
    "unsupported_parameter",
  );
}

/** The Cohere v2 /v2/chat body for an OpenAI chat request. */
export function cohereChatBody(body: Record<string, any>, model: string, stream: boolean): Record<string, unknown> {
  refuseUntranslatable(body, FAMILY);
  refuseSeveralChoices(body, FAMILY);
  const out: Record<string, unknown> = { model, messages: messagesOf(body), stream };
  const max = tokenCount(body.max_completion_tokens) || tokenCount(body.max_tokens);
  if (max) out.max_tokens = max;
  if (isNumber(body.temperature)) out.temperature = body.temperature;
  if (isNumber(body.top_p)) out.p = body.top_p;
  if (isNumber(body.seed)) out.seed = body.seed;
  if (isNumber(body.frequency_penalty)) out.frequency_penalty = body.frequency_penalty;
  if (isNumber(body.presence_penalty)) out.presence_penalty = body.presence_penalty;
  const stop = stopList(body.stop);
  if (stop) out.stop_sequences = stop;
  const tools = toolsOf(body);
  if (tools.length)
    out.tools = tools.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        ...(t.description && { description: t.description }),
        parameters: t.parameters ?? { type: "object", properties: {} },
      },
    }));
  const choice = toolChoice(body);
  if (choice && tools.length) out.tool_choice = choice;
  const format = responseFormatOf(body);
  if (format)
    out.response_format =
      format.kind === "json_schema" ? { type: "json_object", json_schema: format.schema } : { type: "json_object" };
  return out;
}
