import { invalidRequest } from "../../../../shared/relay-error";
import type { ChatTool } from "./chat-types";
import type { ToolNames } from "./tool-names";

/** The translated tools: what the chat call offers, and the Responses tool types left out (run by OpenAI only). */
export interface TranslatedTools {
  tools: ChatTool[];
  hostedTools: string[];
}

/** A custom tool takes free-form text; as a chat function it takes that text as its one `input` argument. */
const CUSTOM_PARAMETERS = {
  type: "object",
  properties: { input: { type: "string", description: "The tool's input, as free-form text." } },
  required: ["input"],
  additionalProperties: false,
};

function functionTool(names: ToolNames, tool: any, namespace?: string): ChatTool {
  const name = names.chatName({ name: tool.name, namespace, kind: "function" });
  return {
    type: "function",
    function: {
      name,
      ...(tool.description && { description: tool.description }),
      parameters: tool.parameters ?? { type: "object", properties: {} },
      ...(typeof tool.strict === "boolean" && { strict: tool.strict }),
    },
  };
}

function customTool(names: ToolNames, tool: any, namespace?: string): ChatTool {
  const name = names.chatName({ name: tool.name, namespace, kind: "custom" });
  const format = tool.format?.type === "grammar" ? tool.format : undefined;
  const grammar = format ? `\n\nThe input must follow this ${format.syntax} grammar:\n${format.definition}` : "";
  return {
    type: "function",
    function: { name, description: `${tool.description ?? ""}${grammar}`.trim(), parameters: CUSTOM_PARAMETERS },
  };
}

function namespaceTools(names: ToolNames, tool: any): ChatTool[] {
  return (tool.tools ?? []).map((inner: any) =>
    inner.type === "custom" ? customTool(names, inner, tool.name) : functionTool(names, inner, tool.name),
  );
}

/**
 * Responses tools → chat tools. Function, custom and namespace tools become chat functions (renamed through
 * `names`); every other type (web_search, file_search, code_interpreter, computer_use_preview, image_generation,
 * mcp, local_shell, shell, apply_patch…) needs OpenAI's servers or a built-in schema, so it is left out and named.
 */
export function translateTools(requested: unknown, names: ToolNames): TranslatedTools {
  if (requested === undefined || requested === null) return { tools: [], hostedTools: [] };
  if (!Array.isArray(requested)) throw invalidRequest("tools must be an array");
  const tools: ChatTool[] = [];
  const hostedTools: string[] = [];
  for (const tool of requested) {
    if (tool?.type === "function") tools.push(functionTool(names, tool));
    else if (tool?.type === "custom") tools.push(customTool(names, tool));
    else if (tool?.type === "namespace") tools.push(...namespaceTools(names, tool));
    else hostedTools.push(String(tool?.type));
  }
  return { tools, hostedTools };
}

/** Responses tool_choice → chat tool_choice; undefined when there is nothing to choose from. */
export function translateToolChoice(choice: any, names: ToolNames, offered: ChatTool[]): unknown {
  if (choice === undefined || choice === null || offered.length === 0) return undefined;
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (choice.type === "function" || choice.type === "custom") {
    const name = names.chatName({ name: choice.name, namespace: choice.namespace, kind: choice.type });
    if (!offered.some((tool) => tool.function.name === name)) {
      throw invalidRequest(`tool_choice names the tool ${choice.name}, which is not among the tools`);
    }
    return { type: "function", function: { name } };
  }
  if (choice.type === "allowed_tools" && (choice.mode === "auto" || choice.mode === "required")) return choice.mode;
  throw invalidRequest(
    `tool_choice ${JSON.stringify(choice.type)} needs a tool that only OpenAI's Responses API runs; it cannot be translated to chat completions`,
  );
}
