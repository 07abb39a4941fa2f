import { DialectRefusal } from "../../../../shared/relay-error";
import type { RouteFacts } from "../types";
import { outputConfig } from "./output-config";

type Json = Record<string, any>;

/** The pivot's image part for an Anthropic image source (base64 data or a URL). */
function imagePart(source: any): Json {
  if (source?.type === "base64") {
    return { type: "image_url", image_url: { url: `data:${source.media_type};base64,${source.data}` } };
  }
  if (source?.type === "url" && typeof source.url === "string")
    return { type: "image_url", image_url: { url: source.url } };
  throw new DialectRefusal(`image source type ${JSON.stringify(source?.type)} is not supported`);
}

/** A text or image block as a pivot content part. */
function contentPart(block: any): Json {
  if (block?.type === "text") return { type: "text", text: String(block.text ?? "") };
  if (block?.type === "image") return imagePart(block.source);
  throw new DialectRefusal(`content blocks of type ${JSON.stringify(block?.type)} are not supported`);
}

const blocksOf = (content: unknown): any[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];

/** The system prompt: a string, or text blocks (cache_control marks are the upstream's business and dropped). */
function systemText(system: unknown): string {
  if (typeof system === "string") return system;
  if (!Array.isArray(system)) throw new DialectRefusal("system must be a string or an array of text blocks");
  return system
    .map((b: any) => {
      if (b?.type !== "text") throw new DialectRefusal("system: only text blocks are supported");
      return String(b.text ?? "");
    })
    .join("\n");
}

/** A tool result: its text as the tool message; images it carries follow as a user message's parts. */
function toolResult(block: any): { tool: Json; images: Json[] } {
  const parts = blocksOf(block.content).map(contentPart);
  const text = parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("\n");
  return {
    tool: { role: "tool", tool_call_id: String(block.tool_use_id ?? ""), content: text },
    images: parts.filter((p) => p.type !== "text"),
  };
}

/** A user turn: its tool results first (they answer the assistant's calls), then its own text and images. */
function userMessages(content: unknown): Json[] {
  if (typeof content === "string") return [{ role: "user", content }];
  const out: Json[] = [];
  const parts: Json[] = [];
  for (const block of blocksOf(content)) {
    if (block?.type === "tool_result") {
      const { tool, images } = toolResult(block);
      out.push(tool);
      parts.push(...images);
    } else parts.push(contentPart(block));
  }
  if (parts.length > 0) out.push({ role: "user", content: parts });
  return out;
}

/** An assistant turn: text, thinking (as reasoning_content) and tool_use blocks (as tool_calls). */
function assistantMessage(content: unknown): Json {
  if (typeof content === "string") return { role: "assistant", content };
  let text = "";
  let reasoning = "";
  const calls: Json[] = [];
  for (const block of blocksOf(content)) {
    if (block?.type === "text") text += block.text ?? "";
    else if (block?.type === "thinking") reasoning += block.thinking ?? "";
    else if (block?.type === "tool_use") {
      const args = JSON.stringify(block.input ?? {});
      calls.push({
        id: String(block.id ?? ""),
        type: "function",
        function: { name: String(block.name), arguments: args },
      });
    } else if (block?.type !== "redacted_thinking") {
      throw new DialectRefusal(`assistant content blocks of type ${JSON.stringify(block?.type)} are not supported`);
    }
  }
  const message: Json = { role: "assistant", content: text || null };
  if (reasoning) message.reasoning_content = reasoning;
  if (calls.length > 0) message.tool_calls = calls;
  return message;
}

function toolChoice(choice: any): unknown {
  switch (choice?.type) {
    case "auto":
      return "auto";
    case "any":
      return "required";
    case "none":
      return "none";
    case "tool":
      return { type: "function", function: { name: String(choice.name) } };
    default:
      throw new DialectRefusal(`tool_choice of type ${JSON.stringify(choice?.type)} is not supported`);
  }
}

function tools(list: unknown[]): Json[] {
  return list.map((tool: any) => {
    if (tool?.type && tool.type !== "custom" && !tool.input_schema) {
      throw new DialectRefusal(`tools of type ${JSON.stringify(tool.type)} (server tools) are not supported`);
    }
    const fn: Json = { name: String(tool?.name), parameters: tool?.input_schema ?? { type: "object" } };
    if (tool?.description) fn.description = tool.description;
    return { type: "function", function: fn };
  });
}

const copyNumber = (from: Json, key: string, to: Json, as = key) => {
  if (typeof from[key] === "number") to[as] = from[key];
};

/** The optional parameters: sampling, stops, tools, thinking, output format; `metadata` is ignored. */
function parameters(body: Json, out: Json): void {
  copyNumber(body, "temperature", out);
  copyNumber(body, "top_p", out);
  copyNumber(body, "top_k", out);
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length > 0) out.stop = body.stop_sequences;
  if (Array.isArray(body.tools) && body.tools.length > 0) out.tools = tools(body.tools);
  if (body.tool_choice) {
    out.tool_choice = toolChoice(body.tool_choice);
    if (body.tool_choice.disable_parallel_tool_use === true) out.parallel_tool_calls = false;
  }
  if (body.thinking?.type === "enabled" && typeof body.thinking.budget_tokens === "number") {
    out.thinking_budget = body.thinking.budget_tokens;
  }
  outputConfig(body, out);
}

/** An Anthropic Messages request as the pivot (OpenAI chat request with the extension fields). */
export function anthropicToChat(body: Json, route: RouteFacts): Json {
  if (!Array.isArray(body.messages)) throw new DialectRefusal("messages: an array of messages is required");
  if (typeof body.max_tokens !== "number" && !route.countOnly) {
    throw new DialectRefusal("max_tokens: a number is required");
  }
  const messages: Json[] = [];
  if (body.system !== undefined && body.system !== "")
    messages.push({ role: "system", content: systemText(body.system) });
  for (const m of body.messages) {
    if (m?.role === "user") messages.push(...userMessages(m.content));
    else if (m?.role === "assistant") messages.push(assistantMessage(m.content));
    else throw new DialectRefusal(`messages: role ${JSON.stringify(m?.role)} is not supported`);
  }
  const out: Json = { model: body.model, messages };
  if (typeof body.max_tokens === "number") out.max_tokens = body.max_tokens;
  if (body.stream === true) out.stream = true;
  parameters(body, out);
  return out;
}
