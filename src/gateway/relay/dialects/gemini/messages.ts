import { invalidRequest } from "../../../../shared/relay-error";
import type { PivotContentPart, PivotMessage, PivotToolCall } from "./pivot";
import type { GeminiContent, GeminiPart } from "./request";

/**
 * Gemini `contents` (user/model turns) as pivot messages. Gemini's function calls usually carry no id, the pivot's
 * must: a call without one gets `call_<n>_<name>` (n counts the conversation's calls, so a resent history gets the
 * same ids), and a functionResponse without one answers the earliest unanswered call of its name.
 */
export function messagesOf(contents: GeminiContent[]): PivotMessage[] {
  const ids = new CallIds();
  const messages: PivotMessage[] = [];
  for (const [turn, content] of contents.entries()) {
    const parts = content.parts ?? [];
    if (!Array.isArray(parts)) throw invalidRequest(`contents[${turn}].parts must be an array`);
    if (content.role === "model") messages.push(assistantMessage(parts, ids));
    else if (content.role === undefined || content.role === "user" || content.role === "function") {
      messages.push(...userMessages(parts, ids));
    } else
      throw invalidRequest(`contents[${turn}].role must be "user" or "model", not ${JSON.stringify(content.role)}`);
  }
  return messages;
}

/** The text of a systemInstruction (a Content, or a bare string as some clients send). */
export function systemTextOf(instruction: GeminiContent | string | undefined): string {
  if (instruction === undefined) return "";
  if (typeof instruction === "string") return instruction;
  return (instruction.parts ?? [])
    .map((part) => part.text ?? "")
    .filter(Boolean)
    .join("\n");
}

class CallIds {
  private count = 0;
  private readonly unanswered: { id: string; name: string }[] = [];

  forCall(name: string, given?: string): string {
    const id = given || `call_${this.count}_${name}`;
    this.count++;
    this.unanswered.push({ id, name });
    return id;
  }

  forResponse(name: string, given?: string): string {
    const at = this.unanswered.findIndex((call) => (given ? call.id === given : call.name === name));
    if (at !== -1) return this.unanswered.splice(at, 1)[0]!.id;
    return given || `call_${this.count++}_${name}`;
  }
}

function assistantMessage(parts: GeminiPart[], ids: CallIds): PivotMessage {
  let content = "";
  let reasoning = "";
  const calls: PivotToolCall[] = [];
  for (const part of parts) {
    if (part.functionCall) {
      const name = String(part.functionCall.name ?? "");
      calls.push({
        id: ids.forCall(name, part.functionCall.id),
        type: "function",
        function: { name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (typeof part.text === "string") {
      if (part.thought) reasoning += part.text;
      else content += part.text;
    } else if (!part.thoughtSignature) throw unsupportedPart(part, "model");
  }
  return {
    role: "assistant",
    content: content || (calls.length ? null : ""),
    ...(reasoning && { reasoning_content: reasoning }),
    ...(calls.length && { tool_calls: calls }),
  };
}

/** A user turn: its function responses first (as tool messages, which must follow the calls), then its content. */
function userMessages(parts: GeminiPart[], ids: CallIds): PivotMessage[] {
  const tools: PivotMessage[] = [];
  const content: PivotContentPart[] = [];
  for (const part of parts) {
    if (part.functionResponse) {
      const name = String(part.functionResponse.name ?? "");
      const response = part.functionResponse.response ?? {};
      tools.push({
        role: "tool",
        tool_call_id: ids.forResponse(name, part.functionResponse.id),
        content: typeof response === "string" ? response : JSON.stringify(response),
      });
    } else if (typeof part.text === "string") content.push({ type: "text", text: part.text });
    else if (part.inlineData) content.push(inlineImage(part.inlineData));
    else if (part.fileData) content.push(fileImage(part.fileData));
    else throw unsupportedPart(part, "user");
  }
  if (!content.length) return tools;
  tools.push({ role: "user", content: textOnly(content) ?? content });
  return tools;
}

/** The parts' text when they are all text parts. */
function textOnly(parts: PivotContentPart[]): string | undefined {
  let text = "";
  for (const part of parts) {
    if (part.type !== "text") return undefined;
    text += part.text;
  }
  return text;
}

function inlineImage(data: { mimeType?: string; data?: string }): PivotContentPart {
  const mimeType = String(data.mimeType ?? "");
  if (!mimeType.startsWith("image/")) {
    throw invalidRequest(`inlineData with mimeType ${JSON.stringify(mimeType)} is not supported: only images are`);
  }
  return { type: "image_url", image_url: { url: `data:${mimeType};base64,${data.data ?? ""}` } };
}

function fileImage(file: { mimeType?: string; fileUri?: string }): PivotContentPart {
  const uri = String(file.fileUri ?? "");
  const mimeType = String(file.mimeType ?? "image/");
  if (
    !/^https?:\/\//i.test(uri) ||
    !mimeType.startsWith("image/") ||
    uri.includes("generativelanguage.googleapis.com")
  ) {
    throw invalidRequest("fileData is supported only for images at a public http(s) URL (Google's Files API is not)");
  }
  return { type: "image_url", image_url: { url: uri } };
}

function unsupportedPart(part: GeminiPart, role: string) {
  const kind = Object.keys(part).find((key) => key !== "thought" && key !== "thoughtSignature") ?? "empty";
  return invalidRequest(`${role} parts of kind ${JSON.stringify(kind)} are not supported`);
}
