import { CHANNEL_TYPES } from "../../../shared/channel-types";
import { anthropicProvider } from "./anthropic/provider";
import { azureProvider } from "./azure/provider";
import { geminiProvider } from "./gemini/provider";
import { openaiCompatibleProvider } from "./openai-compatible/provider";
import type { Provider } from "./types";
import { vertexProvider } from "./vertex/provider";

/** Every upstream family, one line each. */
export const PROVIDERS = [
  openaiCompatibleProvider,
  azureProvider,
  anthropicProvider,
  geminiProvider,
  vertexProvider,
] as const satisfies readonly Provider[];

/** The family serving the types no other family claims (OpenAI's dialect). */
const REST: Provider = PROVIDERS.find((p) => p.types === "rest")!;

/** Indexed by channel type number: the relay looks a channel's family up on every call. */
const BY_TYPE: Provider[] = Array.from({ length: Math.max(...CHANNEL_TYPES.keys()) + 1 }, () => REST);
for (const provider of PROVIDERS)
  if (provider.types !== "rest") for (const type of provider.types) BY_TYPE[type] = provider;

/** The module for a channel type; every type no family claims speaks the OpenAI dialect. */
export const providerFor = (type: number): Provider => BY_TYPE[type] ?? REST;
