import { CHANNEL_TYPES } from "../../../shared/channel-types";
import { aiproxyLibraryProvider } from "./aiproxy-library/provider";
import { anthropicProvider } from "./anthropic/provider";
import { azureProvider } from "./azure/provider";
import { cohereProvider } from "./cohere/provider";
import { cozeProvider } from "./coze/provider";
import { difyProvider } from "./dify/provider";
import { fastgptProvider } from "./fastgpt/provider";
import { geminiProvider } from "./gemini/provider";
import { jinaProvider } from "./jina/provider";
import { openaiCompatibleProvider } from "./openai-compatible/provider";
import type { Provider } from "./types";

/** Every upstream family, one line each. */
export const PROVIDERS = [
  openaiCompatibleProvider,
  azureProvider,
  anthropicProvider,
  geminiProvider,
  cohereProvider,
  jinaProvider,
  difyProvider,
  cozeProvider,
  aiproxyLibraryProvider,
  fastgptProvider,
] as const satisfies readonly Provider[];

/** The family serving the types no other family claims (OpenAI's dialect). */
const REST: Provider = PROVIDERS.find((p) => p.types === "rest")!;

/** Indexed by channel type number: the relay looks a channel's family up on every call. */
const BY_TYPE: Provider[] = Array.from({ length: Math.max(...CHANNEL_TYPES.keys()) + 1 }, () => REST);
for (const provider of PROVIDERS)
  if (provider.types !== "rest") for (const type of provider.types) BY_TYPE[type] = provider;

/** The module for a channel type; every type no family claims speaks the OpenAI dialect. */
export const providerFor = (type: number): Provider => BY_TYPE[type] ?? REST;
