import { DialectRefusal } from "../../../../shared/relay-error";

type Json = Record<string, any>;

/** Anthropic's effort levels as the pivot's reasoning_effort; the two above "high" have no OpenAI level of their own. */
const EFFORTS: Record<string, string> = { low: "low", medium: "medium", high: "high", xhigh: "high", max: "high" };

/** A JSON output format (output_config.format, or the structured-outputs beta's output_format) as response_format. */
function responseFormat(format: any, parameter: string): Json {
  if (format?.type !== "json_schema" || typeof format.schema !== "object" || format.schema === null) {
    throw new DialectRefusal(`${parameter}: only {type: "json_schema", schema} is supported`);
  }
  return { type: "json_schema", json_schema: { name: "output", schema: format.schema } };
}

/** output_config (structured output and effort) and the beta's output_format, onto the pivot request `out`. */
export function outputConfig(body: Json, out: Json): void {
  const config = body.output_config;
  if (config?.format) out.response_format = responseFormat(config.format, "output_config.format");
  else if (body.output_format) out.response_format = responseFormat(body.output_format, "output_format");
  if (config?.effort === undefined || config.effort === null) return;
  const effort = EFFORTS[String(config.effort)];
  if (!effort) throw new DialectRefusal(`output_config.effort must be one of ${Object.keys(EFFORTS).join(", ")}`);
  out.reasoning_effort = effort;
}
