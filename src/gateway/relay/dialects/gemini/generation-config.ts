import { invalidRequest } from "../../../../shared/relay-error";
import type { PivotRequest } from "./pivot";
import type { GeminiGenerationConfig } from "./request";
import { jsonSchemaOf } from "./schema";

type Sampling = Pick<
  PivotRequest,
  | "temperature"
  | "top_p"
  | "max_tokens"
  | "stop"
  | "presence_penalty"
  | "frequency_penalty"
  | "seed"
  | "n"
  | "response_format"
  | "thinking_budget"
  | "reasoning_effort"
>;

/**
 * generationConfig as the pivot's sampling, JSON-mode and thinking fields; topK has no OpenAI equivalent and is
 * dropped. Several candidates are the pivot's `n`: families without it refuse the call naming `n`.
 */
export function samplingOf(config: GeminiGenerationConfig = {}): Sampling {
  const modalities = (config.responseModalities ?? []).filter((m) => m.toUpperCase() !== "TEXT");
  if (modalities.length) {
    throw invalidRequest(`generationConfig.responseModalities ${modalities.join(", ")} is not supported: only TEXT is`);
  }
  const out: Sampling = {};
  if (config.temperature !== undefined) out.temperature = config.temperature;
  if (config.topP !== undefined) out.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) out.max_tokens = config.maxOutputTokens;
  if (config.stopSequences?.length) out.stop = config.stopSequences;
  if (config.presencePenalty !== undefined) out.presence_penalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) out.frequency_penalty = config.frequencyPenalty;
  if (config.seed !== undefined) out.seed = config.seed;
  if (config.candidateCount !== undefined && config.candidateCount > 1) out.n = config.candidateCount;
  const format = responseFormatOf(config);
  if (format) out.response_format = format;
  const thinking = config.thinkingConfig;
  // -1 asks for the model's own dynamic budget, which is what leaving the budget out means upstream.
  if (thinking?.thinkingBudget !== undefined && thinking.thinkingBudget >= 0) {
    out.thinking_budget = thinking.thinkingBudget;
  }
  if (thinking?.thinkingLevel && thinking.thinkingLevel !== "THINKING_LEVEL_UNSPECIFIED") {
    out.reasoning_effort = thinking.thinkingLevel.toLowerCase();
  }
  return out;
}

function responseFormatOf(config: GeminiGenerationConfig): PivotRequest["response_format"] {
  const mimeType = config.responseMimeType;
  if (!mimeType || mimeType === "text/plain") return undefined;
  if (mimeType !== "application/json") {
    throw invalidRequest(`generationConfig.responseMimeType ${JSON.stringify(mimeType)} is not supported`);
  }
  const schema = config.responseJsonSchema ?? (config.responseSchema && jsonSchemaOf(config.responseSchema));
  if (!schema) return { type: "json_object" };
  return { type: "json_schema", json_schema: { name: "response", schema } };
}
