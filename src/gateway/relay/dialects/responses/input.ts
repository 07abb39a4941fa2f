import { invalidRequest } from "../../../../shared/relay-error";
import type { ChatMessage } from "./chat-types";
import type { ToolNames } from "./tool-names";

type Part = Record<string, unknown>;

/** Item types recording a hosted tool's earlier run: the chat upstream never ran it, so they are left out. */
const HOSTED_CALL_ITEMS = new Set([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "computer_call",
  "computer_call_output",
  "local_shell_call",
  "local_shell_call_output",
  "mcp_list_tools",
  "mcp_call",
  "mcp_approval_request",
  "mcp_approval_response",
]);

function refuseStoredFile(where: string): never {
  throw invalidRequest(
    `${where}.file_id refers to a file stored by OpenAI, which a translated call cannot read; send the content inline (image_url or file_data)`,
  );
}

/** One Responses content part → a chat content part. */
function chatPart(part: any, where: string): Part {
  switch (part?.type) {
    case "input_text":
    case "output_text":
      return { type: "text", text: part.text ?? "" };
    case "refusal":
      return { type: "text", text: part.refusal ?? "" };
    case "input_image":
      if (!part.image_url) refuseStoredFile(`${where} input_image`);
      return { type: "image_url", image_url: { url: part.image_url, ...(part.detail && { detail: part.detail }) } };
    case "input_file":
      if (!part.file_data) {
        if (part.file_id) refuseStoredFile(`${where} input_file`);
        throw invalidRequest(
          `${where} input_file needs file_data: a file_url cannot be translated to chat completions`,
        );
      }
      return { type: "file", file: { file_data: part.file_data, ...(part.filename && { filename: part.filename }) } };
    default:
      throw invalidRequest(`${where} has a content part of type ${JSON.stringify(part?.type)}, which is not supported`);
  }
}

const textOf = (parts: Part[]) => parts.map((part) => String(part.text ?? "")).join("");
const allText = (parts: Part[]) => parts.every((part) => part.type === "text");

/** Builds chat messages from Responses input items, in order, merging an assistant turn's text and calls. */
class Conversation {
  readonly messages: ChatMessage[] = [];
  private reasoning = "";
  /** Images from function outputs: chat tool messages hold text only, so they follow in a user message. */
  private toolImages: Part[] = [];

  constructor(private readonly names: ToolNames) {}

  add(item: any, index: number): void {
    const where = `input[${index}]`;
    const type = item?.type ?? (item?.role ? "message" : undefined);
    if (type !== "function_call_output" && type !== "custom_tool_call_output") this.flushToolImages();
    switch (type) {
      case "message":
        this.message(item, where);
        break;
      case "reasoning":
        this.reasoning += (item.summary ?? []).map((part: any) => part.text ?? "").join("\n\n");
        break;
      case "function_call":
        this.call(item.call_id, { name: item.name, namespace: item.namespace, kind: "function" }, item.arguments);
        break;
      case "custom_tool_call":
        this.call(
          item.call_id,
          { name: item.name, namespace: item.namespace, kind: "custom" },
          JSON.stringify({ input: item.input ?? "" }),
        );
        break;
      case "function_call_output":
      case "custom_tool_call_output":
        this.toolOutput(item, where);
        break;
      case "item_reference":
        throw invalidRequest(`${where} is an item_reference: a translated call has no stored items to refer to`);
      default:
        if (!HOSTED_CALL_ITEMS.has(type)) {
          throw invalidRequest(
            `${where} has type ${JSON.stringify(type)}, which cannot be translated to chat completions`,
          );
        }
    }
  }

  finish(): ChatMessage[] {
    this.flushToolImages();
    return this.messages;
  }

  private message(item: any, where: string): void {
    const role = item.role === "developer" ? "system" : item.role;
    if (!["user", "assistant", "system"].includes(role)) {
      throw invalidRequest(`${where}.role ${JSON.stringify(item.role)} is not a message role`);
    }
    const parts: Part[] =
      typeof item.content === "string"
        ? [{ type: "text", text: item.content }]
        : (item.content ?? []).map((part: any, i: number) => chatPart(part, `${where}.content[${i}]`));
    if (role === "assistant") {
      this.assistantText(textOf(parts));
      return;
    }
    this.reasoning = "";
    const content = role === "system" || allText(parts) ? textOf(parts) : parts;
    this.messages.push({ role, content });
  }

  /** The assistant message this turn's text or calls go to: the last one, unless something came after it. */
  private assistant(): ChatMessage {
    const last = this.messages.at(-1);
    const message: ChatMessage =
      last?.role === "assistant" ? last : { role: "assistant", content: null as ChatMessage["content"] };
    if (message !== last) this.messages.push(message);
    if (this.reasoning) {
      message.reasoning_content = (message.reasoning_content ?? "") + this.reasoning;
      this.reasoning = "";
    }
    return message;
  }

  private assistantText(text: string): void {
    const message = this.assistant();
    message.content = `${(message.content as string | null) ?? ""}${text}`;
  }

  private call(
    callId: string,
    origin: { name: string; namespace?: string; kind: "function" | "custom" },
    args: string,
  ) {
    const message = this.assistant();
    message.tool_calls ??= [];
    message.tool_calls.push({
      id: callId,
      type: "function",
      function: { name: this.names.chatName(origin), arguments: args ?? "" },
    });
  }

  private toolOutput(item: any, where: string): void {
    const output = item.output;
    let content: string;
    if (typeof output === "string") content = output;
    else {
      const parts: Part[] = (output ?? []).map((part: any, i: number) => chatPart(part, `${where}.output[${i}]`));
      content = textOf(parts.filter((part) => part.type === "text"));
      this.toolImages.push(...parts.filter((part) => part.type !== "text"));
    }
    this.messages.push({ role: "tool", tool_call_id: item.call_id, content });
  }

  private flushToolImages(): void {
    if (this.toolImages.length === 0) return;
    this.messages.push({ role: "user", content: this.toolImages });
    this.toolImages = [];
  }
}

/** Responses `input` (a string or a list of items) → chat messages, naming tools through `names`. */
export function inputMessages(input: unknown, names: ToolNames): ChatMessage[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input)) throw invalidRequest("input must be a string or an array of input items");
  const conversation = new Conversation(names);
  input.forEach((item, index) => {
    conversation.add(item, index);
  });
  return conversation.finish();
}
