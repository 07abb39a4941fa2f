/** The tool results a CLI sent back, found in a recorded request body of each dialect. */
import { expect } from "bun:test";
import { NOTE_MARKER } from "./run-cli";

/** Anthropic Messages: tool_result blocks. */
export const anthropicToolResults = (body: any): any[] =>
  (body?.messages ?? []).flatMap((m: any) =>
    Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_result") : [],
  );

/** OpenAI Responses: function_call_output items. */
export const responsesCallOutputs = (body: any): any[] =>
  Array.isArray(body?.input) ? body.input.filter((item: any) => item.type === "function_call_output") : [];

/** OpenAI chat completions: role "tool" messages. */
export const chatToolMessages = (body: any): any[] => (body?.messages ?? []).filter((m: any) => m.role === "tool");

/** Gemini generateContent: functionResponse parts. */
export const geminiFunctionResponses = (body: any): any[] =>
  (body?.contents ?? []).flatMap((c: any) => (c.parts ?? []).filter((p: any) => p.functionResponse));

/** The names of the tools a request offers, whatever its dialect. */
export const offeredTools = (body: any): string[] =>
  (body?.tools ?? []).flatMap((t: any) =>
    t.functionDeclarations ? t.functionDeclarations.map((f: any) => f.name) : [t.name ?? t.function?.name],
  );

/** Two model calls: the first offered `tool`, the second carried its result, which holds the note's marker. */
export function expectToolRoundTrip(calls: { body: any }[], tool: string, resultOf: (body: any) => unknown) {
  expect(calls).toHaveLength(2);
  expect(offeredTools(calls[0]!.body)).toContain(tool);
  expect(JSON.stringify(resultOf(calls[1]!.body))).toContain(NOTE_MARKER);
}
