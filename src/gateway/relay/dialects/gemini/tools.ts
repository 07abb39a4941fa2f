import { invalidRequest } from "../../../../shared/relay-error";
import type { PivotTool, PivotToolChoice } from "./pivot";
import type { GeminiFunctionDeclaration, GeminiRequest } from "./request";
import { jsonSchemaOf } from "./schema";

export interface PivotTools {
  tools?: PivotTool[];
  tool_choice?: PivotToolChoice;
  /** Google-hosted tools (googleSearch, codeExecution, …) a chat upstream cannot run, left out of the call. */
  dropped: string[];
}

/** The Google-hosted tools a request offers (googleSearch, codeExecution, …): what a translation leaves out. */
export function hostedToolsOf(request: Pick<GeminiRequest, "tools">): string[] {
  const hosted: string[] = [];
  for (const tool of request.tools ?? [])
    for (const kind of Object.keys(tool)) if (kind !== "functionDeclarations") hosted.push(kind);
  return hosted;
}

/** Gemini's functionDeclarations and functionCallingConfig as OpenAI tools and tool_choice. */
export function toolsOf(request: Pick<GeminiRequest, "tools" | "toolConfig">): PivotTools {
  const dropped = hostedToolsOf(request);
  let tools: PivotTool[] = [];
  for (const tool of request.tools ?? []) {
    const declarations = tool.functionDeclarations;
    if (Array.isArray(declarations)) tools.push(...declarations.map(functionTool));
  }
  const config = request.toolConfig?.functionCallingConfig;
  const allowed = config?.allowedFunctionNames;
  if (allowed?.length) tools = tools.filter((tool) => allowed.includes(tool.function.name));
  if (!tools.length) return { dropped };
  return { tools, ...choiceOf(config?.mode, allowed), dropped };
}

function functionTool(declaration: GeminiFunctionDeclaration): PivotTool {
  if (!declaration?.name) throw invalidRequest("tools[].functionDeclarations[].name is required");
  const parameters = declaration.parametersJsonSchema ?? jsonSchemaOf(declaration.parameters);
  return {
    type: "function",
    function: {
      name: String(declaration.name),
      ...(declaration.description && { description: String(declaration.description) }),
      ...(parameters !== undefined && { parameters }),
    },
  };
}

function choiceOf(mode: string | undefined, allowed: string[] | undefined): { tool_choice?: PivotToolChoice } {
  switch (mode ?? "AUTO") {
    case "AUTO":
    case "VALIDATED":
    case "MODE_UNSPECIFIED":
      return mode ? { tool_choice: "auto" } : {};
    case "NONE":
      return { tool_choice: "none" };
    case "ANY":
      if (allowed?.length === 1) return { tool_choice: { type: "function", function: { name: allowed[0]! } } };
      return { tool_choice: "required" };
    default:
      throw invalidRequest(`toolConfig.functionCallingConfig.mode ${JSON.stringify(mode)} is not supported`);
  }
}
