import { invalidRequest } from "../../../shared/relay-error";

/** An OpenAI chat request's messages as the other dialects take them. */

/** A tool call the assistant made: `arguments` as the JSON text OpenAI carries, `input` parsed. */
export interface ToolCallPart {
  toolCall: { id: string; name: string; input: Record<string, unknown> };
}
/** A tool's answer; `name` is the called function's (Gemini addresses answers by name, Claude by id). */
export interface ToolResultPart {
  toolResult: { id: string; name: string; content: string };
}
/** A content part the other dialects can carry: text, an image by data or URL, a tool call or a tool's answer. */
export type Part =
  | { text: string }
  | { image: { mediaType: string; data: string } }
  | { imageUrl: string }
  | ToolCallPart
  | ToolResultPart;

export interface Turn {
  role: "user" | "assistant";
  parts: Part[];
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** The parts of an OpenAI message's content (a string or an array of text and image_url parts). */
export function partsOf(content: unknown, family: string): Part[] {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return content ? [{ text: content }] : [];
  if (!Array.isArray(content)) throw invalidRequest("message content must be a string or an array of parts");
  return content.map((part: any): Part => {
    if (part?.type === "text") return { text: String(part.text ?? "") };
    if (part?.type === "image_url") {
      const url = String(part.image_url?.url ?? part.image_url ?? "");
      const data = DATA_URL.exec(url);
      if (data) return { image: { mediaType: data[1]!, data: data[2]! } };
      if (/^https?:\/\//i.test(url)) return { imageUrl: url };
      throw invalidRequest("image_url must be an http(s) URL or a base64 data: URL");
    }
    throw invalidRequest(`content parts of type ${JSON.stringify(part?.type)} are not supported on ${family} channels`);
  });
}

/** A message's text (its text parts joined); for system messages and tool answers. */
export function textOf(content: unknown, family: string, what = "system messages"): string {
  return partsOf(content, family)
    .map((p) => {
      if (!("text" in p)) throw invalidRequest(`${what} take text only`);
      return p.text;
    })
    .join("\n");
}

function toolCallOf(call: any): ToolCallPart {
  const id = String(call?.id ?? "");
  const name = String(call?.function?.name ?? "");
  if (!id || !name) throw invalidRequest("messages[].tool_calls[] need an id and a function name");
  const text = call.function.arguments;
  let input: unknown = {};
  try {
    input = typeof text === "string" && text.trim() ? JSON.parse(text) : (text ?? {});
  } catch {
    throw invalidRequest(`messages[].tool_calls[].function.arguments of ${name} is not valid JSON`);
  }
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw invalidRequest(`messages[].tool_calls[].function.arguments of ${name} must be a JSON object`);
  return { toolCall: { id, name, input: input as Record<string, unknown> } };
}

const onlyToolResults = (t: Turn | undefined) => t?.role === "user" && t.parts.every((p) => "toolResult" in p);

/**
 * The system text apart, then the turns. Assistant tool_calls become tool-call parts of the assistant turn;
 * role "tool" answers become tool-result parts of one user turn (consecutive answers share it, as both
 * Claude and Gemini expect all the answers to one turn's calls together).
 */
export function chatTurns(body: Record<string, any>, family: string): { system: string; turns: Turn[] } {
  if (!Array.isArray(body.messages)) throw invalidRequest("messages must be an array");
  const system: string[] = [];
  const turns: Turn[] = [];
  const names = new Map<string, string>();
  for (const m of body.messages) {
    const role = m?.role;
    if (role === "system" || role === "developer") system.push(textOf(m.content, family));
    else if (role === "user") turns.push({ role, parts: partsOf(m.content, family) });
    else if (role === "assistant") {
      const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).map(toolCallOf);
      for (const c of calls) names.set(c.toolCall.id, c.toolCall.name);
      turns.push({ role, parts: [...partsOf(m.content, family), ...calls] });
    } else if (role === "tool") {
      const id = String(m.tool_call_id ?? "");
      const name = names.get(id);
      if (!name) throw invalidRequest(`messages[].tool_call_id ${JSON.stringify(id)} answers no earlier tool call`);
      const part: ToolResultPart = { toolResult: { id, name, content: textOf(m.content, family, "tool messages") } };
      if (onlyToolResults(turns.at(-1))) turns.at(-1)!.parts.push(part);
      else turns.push({ role: "user", parts: [part] });
    } else
      throw invalidRequest(
        `messages with role ${JSON.stringify(role)} are not supported on ${family} channels`,
        "unsupported_parameter",
      );
  }
  return { system: system.join("\n\n"), turns };
}
