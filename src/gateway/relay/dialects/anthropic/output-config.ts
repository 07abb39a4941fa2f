import { DialectRefusal } from "../../../../shared/relay-error";

type Json = Record<string, any>;

/** A JSON output format (output_config.format, or the structured-outputs beta's output_format) as response_format. */
function responseFormat(format: any, parameter: string): Json {
  if (format?.type !== "json_schema" || typeof format.schema !== "object" || format.schema === null) {
    throw new DialectRefusal(`${parameter}: only {type: "json_schema", schema} is supported`);
  }
  return { type: "json_schema", json_schema: { name: "output", schema: format.schema } };
}

/**
 * Structured output (output_config.format, or the beta's output_format) onto the pivot request `out`.
 * output_config.effort is a hint like a thinking budget and, like it, not carried: Claude Code sends it, and an
 * OpenAI-family model that does not reason refuses reasoning_effort.
 */
export function outputConfig(body: Json, out: Json): void {
  const format = body.output_config?.format;
  if (format) out.response_format = responseFormat(format, "output_config.format");
  else if (body.output_format) out.response_format = responseFormat(body.output_format, "output_format");
}
