import { invalidRequest, RelayError } from "../../../../shared/relay-error";

export type GeminiAction =
  | "generateContent"
  | "streamGenerateContent"
  | "countTokens"
  | "embedContent"
  | "batchEmbedContents";

const ACTIONS = new Set<string>([
  "generateContent",
  "streamGenerateContent",
  "countTokens",
  "embedContent",
  "batchEmbedContents",
]);

/** The model and action of a `models/{model}:{action}` path tail (with or without the `models/` prefix). */
export function modelActionOf(tail: string): { model: string; action: GeminiAction } {
  const path = (tail.includes("%") ? decodeURIComponent(tail) : tail).replace(/^\/?(models\/)?/, "");
  const colon = path.lastIndexOf(":");
  const model = colon === -1 ? "" : path.slice(0, colon);
  const action = colon === -1 ? path : path.slice(colon + 1);
  if (!model) throw invalidRequest("the path must name a model: models/{model}:{action}");
  if (!ACTIONS.has(action))
    throw new RelayError(404, `the method ${JSON.stringify(action)} is not supported`, "not_found");
  return { model, action: action as GeminiAction };
}
