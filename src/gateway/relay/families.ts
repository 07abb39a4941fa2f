import { anthropicProvider } from "./providers/anthropic/provider";
import { azureProvider } from "./providers/azure/provider";
import { bedrockProvider } from "./providers/bedrock/provider";
import { geminiProvider } from "./providers/gemini/provider";
import { openaiCompatibleProvider } from "./providers/openai-compatible/provider";
import type { Provider } from "./providers/types";
import { unservedProvider } from "./providers/unserved";
import { vertexProvider } from "./providers/vertex/provider";

/** Each family's name, as the log row's `other.family` records it and dialects name their native family. */
const FAMILIES = new Map<Provider, string>([
  [openaiCompatibleProvider, "openai"],
  [azureProvider, "azure"],
  [anthropicProvider, "anthropic"],
  [geminiProvider, "gemini"],
  [bedrockProvider, "bedrock"],
  [unservedProvider, "none"],
  [vertexProvider, "vertex"],
]);

export const familyOf = (provider: Provider): string => FAMILIES.get(provider) ?? "openai";
