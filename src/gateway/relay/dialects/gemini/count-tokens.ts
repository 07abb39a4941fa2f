import { invalidRequest } from "../../../../shared/relay-error";
import { systemTextOf } from "./messages";
import type { GeminiContent, GeminiRequest } from "./request";

/** A countTokens request: bare `contents`, or a whole `generateContentRequest`. */
export interface GeminiCountTokensRequest {
  contents?: GeminiContent[];
  generateContentRequest?: GeminiRequest & { model?: string };
}

/** The texts a countTokens request would send: system instruction, turns (calls and responses as JSON), tools. */
export function countTokensTexts(body: GeminiCountTokensRequest): string[] {
  const request: GeminiRequest = body?.generateContentRequest ?? { contents: body?.contents };
  if (!Array.isArray(request.contents)) {
    throw invalidRequest("countTokens needs contents or generateContentRequest.contents");
  }
  const texts = [systemTextOf(request.systemInstruction)];
  for (const content of request.contents) {
    for (const part of content.parts ?? []) {
      if (typeof part.text === "string") texts.push(part.text);
      else if (part.functionCall)
        texts.push(part.functionCall.name ?? "", JSON.stringify(part.functionCall.args ?? {}));
      else if (part.functionResponse) {
        texts.push(part.functionResponse.name ?? "", JSON.stringify(part.functionResponse.response ?? {}));
      }
    }
  }
  for (const tool of request.tools ?? []) {
    if (tool.functionDeclarations) texts.push(JSON.stringify(tool.functionDeclarations));
  }
  return texts.filter(Boolean);
}

export const countTokensReply = (totalTokens: number) => ({ totalTokens });
