import type { Content, GenerationConfig, Tool, ToolConfig } from "@google/genai";

/** The REST body of generateContent, typed with the SDK's own types so fixtures are what the SDK sends. */
export interface RestGenerateContent {
  contents: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
  generationConfig?: GenerationConfig;
}

/** A pivot chunk stream as OpenAI SSE text. */
export const pivotSse = (chunks: unknown[]) =>
  `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`;

export const chunk = (delta: object, finish: string | null = null, index = 0) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  model: "gpt-test",
  choices: [{ index, delta, finish_reason: finish }],
});

export const usageChunk = (usage: object) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  model: "gpt-test",
  choices: [],
  usage,
});
