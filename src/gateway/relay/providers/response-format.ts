import { invalidRequest } from "../../../shared/relay-error";

/** What a chat request's response_format asks of the reply: any text, a JSON object, or JSON matching a schema. */
export type ResponseFormat = { kind: "json_object" } | { kind: "json_schema"; name: string; schema: object };

export function responseFormatOf(body: Record<string, any>): ResponseFormat | undefined {
  const f = body.response_format;
  if (f === undefined || f === null || f.type === "text") return undefined;
  if (f.type === "json_object") return { kind: "json_object" };
  if (f.type === "json_schema") {
    const schema = f.json_schema?.schema;
    if (typeof schema !== "object" || schema === null)
      throw invalidRequest("response_format.json_schema.schema must be a JSON Schema object");
    return { kind: "json_schema", name: String(f.json_schema.name ?? "response"), schema };
  }
  throw invalidRequest(`response_format of type ${JSON.stringify(f.type)} is not supported`);
}

/** For a family without a JSON mode: the request as an instruction, so the reply still keeps to it. */
export function jsonInstruction(format: ResponseFormat): string {
  if (format.kind === "json_object")
    return "Respond with one valid JSON object and nothing else: no prose, no Markdown code fences.";
  return (
    `Respond with one valid JSON value and nothing else (no prose, no Markdown code fences) that conforms to ` +
    `this JSON Schema named ${JSON.stringify(format.name)}:\n${JSON.stringify(format.schema)}`
  );
}
