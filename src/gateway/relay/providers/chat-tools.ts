import { invalidRequest } from "../../../shared/relay-error";

/** The function tools of an OpenAI chat request, and its tool_choice, read once for every family. */

export interface FunctionTool {
  name: string;
  description?: string;
  /** A JSON Schema; absent: the function takes no parameters. */
  parameters?: Record<string, unknown>;
}

export function toolsOf(body: Record<string, any>): FunctionTool[] {
  if (body.tools === undefined || body.tools === null) return [];
  if (!Array.isArray(body.tools)) throw invalidRequest("tools must be an array");
  return body.tools.map((t: any) => {
    if (t?.type !== "function")
      throw invalidRequest(`tools of type ${JSON.stringify(t?.type)} are not supported; only function tools`);
    const name = t.function?.name;
    if (typeof name !== "string" || !name) throw invalidRequest("tools[].function.name is required");
    return {
      name,
      ...(typeof t.function.description === "string" && { description: t.function.description }),
      ...(t.function.parameters && { parameters: t.function.parameters }),
    };
  });
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

/** tool_choice as given (undefined when absent). */
export function toolChoiceOf(body: Record<string, any>): ToolChoice | undefined {
  const c = body.tool_choice;
  if (c === undefined || c === null) return undefined;
  if (c === "auto" || c === "none" || c === "required") return c;
  if (c?.type === "function" && typeof c.function?.name === "string") return { name: c.function.name };
  throw invalidRequest('tool_choice must be "auto", "none", "required" or {type:"function", function:{name}}');
}
