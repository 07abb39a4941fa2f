/**
 * Gemini's `Schema` (an OpenAPI 3.0 subset with upper-case type names and `nullable`) as the JSON Schema
 * OpenAI's tools and response_format take.
 */
export function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "nullable" || key === "propertyOrdering") continue;
    if (key === "type" && typeof value === "string") out.type = value.toLowerCase();
    else if (key === "properties" && value && typeof value === "object") {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, jsonSchemaOf(sub)]));
    } else out[key] = jsonSchemaOf(value);
  }
  if ((schema as { nullable?: unknown }).nullable === true && typeof out.type === "string") {
    out.type = [out.type, "null"];
  }
  return out;
}
