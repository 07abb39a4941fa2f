/**
 * Gemini's functionDeclarations[].parameters take an OpenAPI-3 subset of JSON Schema and answer 400 to any
 * other keyword. Kept: the keywords below; `type: [t, "null"]` becomes `type: t, nullable: true` and `const`
 * becomes a one-value `enum`. Stripped (with everything else not listed): $schema, $id, $ref, $defs,
 * definitions, additionalProperties, patternProperties, unevaluatedProperties, oneOf/allOf/not, if/then/else,
 * exclusiveMinimum/Maximum, multipleOf, uniqueItems, examples, contentEncoding/MediaType, readOnly/writeOnly.
 */
const KEPT = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "default",
  "minimum",
  "maximum",
  "propertyOrdering",
]);

export function geminiSchema(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (KEPT.has(key)) out[key] = value;
    else if (key === "properties" && typeof value === "object" && value !== null)
      out.properties = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, geminiSchema(s)]));
    else if (key === "items") out.items = geminiSchema(value);
    else if (key === "anyOf" && Array.isArray(value)) out.anyOf = value.map(geminiSchema);
    else if (key === "const") out.enum = [value];
  }
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== "null");
    if (types.length < out.type.length) out.nullable = true;
    out.type = types.length === 1 ? types[0] : undefined;
    if (out.type === undefined) delete out.type;
  }
  if (typeof out.type === "string") out.type = out.type.toUpperCase();
  return out;
}
