import { anthropicProvider } from "./anthropic/provider";
import { azureProvider } from "./azure/provider";
import { bedrockProvider } from "./bedrock/provider";
import { aiproxyLibraryProvider } from "./aiproxy-library/provider";
import { cohereProvider } from "./cohere/provider";
import { cozeProvider } from "./coze/provider";
import { difyProvider } from "./dify/provider";
import { fastgptProvider } from "./fastgpt/provider";
import { geminiProvider } from "./gemini/provider";
import { jinaProvider } from "./jina/provider";
import { midjourneyProvider } from "./midjourney/provider";
import { openaiCompatibleProvider } from "./openai-compatible/provider";
import { sunoProvider } from "./suno/provider";
import type { Provider } from "./types";
import { unservedProvider } from "./unserved";
import { vertexProvider } from "./vertex/provider";

/** Every upstream family, one line each. */
export const PROVIDERS = [
  openaiCompatibleProvider,
  azureProvider,
  anthropicProvider,
  geminiProvider,
  bedrockProvider,
  vertexProvider,
  cohereProvider,
  jinaProvider,
  difyProvider,
  cozeProvider,
  aiproxyLibraryProvider,
  fastgptProvider,
  midjourneyProvider,
  sunoProvider,
] as const satisfies readonly Provider[];

const BY_TYPE = new Map<number, Provider>(PROVIDERS.flatMap((p) => p.types.map((type) => [type, p] as const)));

/** The channel types some family serves, in number order: the only types a channel may be created with. */
export const SERVED_TYPES: readonly number[] = [...BY_TYPE.keys()].sort((a, b) => a - b);

/** The family claiming the type, or undefined: nothing treats an unclaimed type as another family's. */
export const claimantOf = (type: number): Provider | undefined => BY_TYPE.get(type);

/**
 * The module for a channel type. A channel whose type no family serves (stored before its family was removed)
 * gets the unserved stand-in: it serves no endpoint, so the relay passes such a channel over with a clear refusal.
 */
export const providerFor = (type: number): Provider => BY_TYPE.get(type) ?? unservedProvider;
