import { chatTurns, type Part } from "../chat-messages";
import { toolChoiceOf, toolsOf } from "../chat-tools";
import { isNumber, stopList, tokenCount } from "../openai-shape";
import { thinkingBudgetOf } from "../reasoning-budget";
import { responseFormatOf } from "../response-format";
import { refuseSeveralChoices, refuseUntranslatable } from "../untranslatable";
import { signatureOf } from "./call-signature";
import { geminiSchema } from "./function-schema";

const FAMILY = "Gemini";

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  heic: "image/heic",
  heif: "image/heif",
};
/** fileData needs a MIME type; a link tells it by its extension, else it is taken for a JPEG. */
const imageTypeOf = (url: string) =>
  IMAGE_TYPES[/\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase() ?? ""] ?? "image/jpeg";

/** A functionResponse's response must be an object: a JSON object answer as it is, anything else as `output`. */
function responseOf(content: string): object {
  try {
    const value = JSON.parse(content);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  } catch {}
  return { output: content };
}

function geminiPart(p: Part): object {
  if ("text" in p) return { text: p.text };
  if ("image" in p) return { inlineData: { mimeType: p.image.mediaType, data: p.image.data } };
  if ("imageUrl" in p) return { fileData: { mimeType: imageTypeOf(p.imageUrl), fileUri: p.imageUrl } };
  if ("toolCall" in p) {
    const thoughtSignature = signatureOf(p.toolCall.id);
    return {
      functionCall: { name: p.toolCall.name, args: p.toolCall.input },
      ...(thoughtSignature && { thoughtSignature }),
    };
  }
  return { functionResponse: { name: p.toolResult.name, response: responseOf(p.toolResult.content) } };
}

const MODES = { auto: "AUTO", none: "NONE", required: "ANY" } as const;

function toolConfig(body: Record<string, any>): object | undefined {
  const choice = toolChoiceOf(body);
  if (choice === undefined) return undefined;
  if (typeof choice === "string") return { functionCallingConfig: { mode: MODES[choice] } };
  return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [choice.name] } };
}

function generationConfig(body: Record<string, any>, stream: boolean): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const maxTokens = tokenCount(body.max_completion_tokens) || tokenCount(body.max_tokens);
  if (maxTokens) config.maxOutputTokens = maxTokens;
  if (isNumber(body.temperature)) config.temperature = body.temperature;
  if (isNumber(body.top_p)) config.topP = body.top_p;
  if (isNumber(body.seed)) config.seed = body.seed;
  if (isNumber(body.presence_penalty)) config.presencePenalty = body.presence_penalty;
  if (isNumber(body.frequency_penalty)) config.frequencyPenalty = body.frequency_penalty;
  const stop = stopList(body.stop);
  if (stop) config.stopSequences = stop;
  if (typeof body.n === "number" && body.n > 1) {
    // The stream form is read as one choice (OpenAI's chunks carry one index per event here).
    if (stream) refuseSeveralChoices(body, FAMILY, " when streaming");
    config.candidateCount = body.n;
  }
  const format = responseFormatOf(body);
  if (format) config.responseMimeType = "application/json";
  if (format?.kind === "json_schema") {
    // responseJsonSchema takes JSON Schema as it is, but for the $schema dialect marker, which it does not list.
    const { $schema: _, ...schema } = format.schema as Record<string, unknown>;
    config.responseJsonSchema = schema;
  }
  const budget = thinkingBudgetOf(body);
  if (budget !== undefined) config.thinkingConfig = { thinkingBudget: budget, includeThoughts: budget > 0 };
  return config;
}

/** The generateContent body for an OpenAI chat request. */
export function generateContentBody(body: Record<string, any>, stream = false): Record<string, unknown> {
  refuseUntranslatable(body, FAMILY);
  const { system, turns } = chatTurns(body, FAMILY);
  const out: Record<string, unknown> = {
    contents: turns.map((t) => ({ role: t.role === "assistant" ? "model" : "user", parts: t.parts.map(geminiPart) })),
  };
  if (system) out.systemInstruction = { parts: [{ text: system }] };
  const tools = toolsOf(body);
  if (tools.length)
    out.tools = [
      {
        functionDeclarations: tools.map((t) => ({
          name: t.name,
          ...(t.description && { description: t.description }),
          ...(t.parameters && { parameters: geminiSchema(t.parameters) }),
        })),
      },
    ];
  const tc = toolConfig(body);
  if (tc && tools.length) out.toolConfig = tc;
  const config = generationConfig(body, stream);
  if (Object.keys(config).length) out.generationConfig = config;
  return out;
}
