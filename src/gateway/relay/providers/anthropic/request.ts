import { invalidRequest } from "../../../../shared/relay-error";
import { chatTurns, type Part } from "../chat-messages";
import { toolChoiceOf, toolsOf } from "../chat-tools";
import { isNumber, stopList, tokenCount } from "../openai-shape";
import { thinkingBudgetOf } from "../reasoning-budget";
import { jsonInstruction, responseFormatOf } from "../response-format";
import { refuseSeveralChoices, refuseUntranslatable } from "../untranslatable";

const FAMILY = "Anthropic";
/**
 * The Messages API requires max_tokens. When the client sets none (max_completion_tokens or max_tokens)
 * we ask for 4096: the largest output every Claude model accepts (Claude 3 models top out there), so
 * the request is valid whatever model the channel maps to. With thinking on, the budget is added on top
 * (Claude requires max_tokens above budget_tokens).
 */
export const DEFAULT_MAX_TOKENS = 4096;

function block(p: Part): object {
  if ("text" in p) return { type: "text", text: p.text };
  if ("image" in p)
    return { type: "image", source: { type: "base64", media_type: p.image.mediaType, data: p.image.data } };
  if ("imageUrl" in p) return { type: "image", source: { type: "url", url: p.imageUrl } };
  if ("toolCall" in p) return { type: "tool_use", id: p.toolCall.id, name: p.toolCall.name, input: p.toolCall.input };
  return { type: "tool_result", tool_use_id: p.toolResult.id, content: p.toolResult.content };
}

function contentOf(parts: Part[]): string | object[] {
  if (parts.length === 1 && "text" in parts[0]!) return parts[0].text;
  return parts.map(block);
}

function toolChoice(body: Record<string, any>): object | undefined {
  const choice = toolChoiceOf(body);
  const serial = body.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return body.parallel_tool_calls === false ? { type: "auto", ...serial } : undefined;
  if (choice === "none") return { type: "none" };
  if (choice === "auto") return { type: "auto", ...serial };
  if (choice === "required") return { type: "any", ...serial };
  return { type: "tool", name: choice.name, ...serial };
}

/**
 * Whether the conversation is inside a tool-use cycle: its last assistant turn called tools. With thinking on,
 * Claude requires that turn to begin with its signed thinking block, which OpenAI's dialect cannot carry back
 * (a reply's reasoning reaches the client without its signature); such a call is sent without thinking rather
 * than refused with a 400 the client cannot avoid. The cycle's first call (and every later plain turn) thinks.
 */
const midToolCycle = (turns: { role: string; parts: Part[] }[]) =>
  turns.findLast((t) => t.role === "assistant")?.parts.some((p) => "toolCall" in p) === true;

/** The Messages API body for an OpenAI chat request. */
export function messagesBody(body: Record<string, any>, model: string, stream: boolean): Record<string, unknown> {
  refuseUntranslatable(body, FAMILY);
  refuseSeveralChoices(body, FAMILY);
  const { system, turns } = chatTurns(body, FAMILY);
  const budget = thinkingBudgetOf(body);
  const format = responseFormatOf(body);
  const asked = tokenCount(body.max_completion_tokens) || tokenCount(body.max_tokens);
  if (asked && budget && asked <= budget)
    throw invalidRequest(
      `max_tokens/max_completion_tokens (${asked}) must exceed the thinking budget (${budget}) on ${FAMILY} channels`,
    );
  const out: Record<string, unknown> = {
    model,
    max_tokens: asked || DEFAULT_MAX_TOKENS + (budget ?? 0),
    messages: turns.map((t) => ({ role: t.role, content: contentOf(t.parts) })),
  };
  // Claude has no JSON mode: the format becomes an instruction at the end of the system prompt.
  const systemText = [system, format && jsonInstruction(format)].filter(Boolean).join("\n\n");
  if (systemText) out.system = systemText;
  // Passed as given: Claude takes 0..1 and answers 400 (relayed with its status) to more.
  if (isNumber(body.temperature)) out.temperature = body.temperature;
  if (isNumber(body.top_p)) out.top_p = body.top_p;
  const stop = stopList(body.stop);
  if (stop) out.stop_sequences = stop;
  const tools = toolsOf(body);
  if (tools.length)
    out.tools = tools.map((t) => ({
      name: t.name,
      ...(t.description && { description: t.description }),
      input_schema: t.parameters ?? { type: "object", properties: {} },
    }));
  const choice = toolChoice(body);
  if (choice && tools.length) out.tool_choice = choice;
  if (budget && !midToolCycle(turns)) out.thinking = { type: "enabled", budget_tokens: budget };
  if (typeof body.user === "string" && body.user) out.metadata = { user_id: body.user };
  if (stream) out.stream = true;
  return out;
}
