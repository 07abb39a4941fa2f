import { aiproxyLibraryProvider } from "./providers/aiproxy-library/provider";
import { anthropicProvider } from "./providers/anthropic/provider";
import { azureProvider } from "./providers/azure/provider";
import { bedrockProvider } from "./providers/bedrock/provider";
import { cohereProvider } from "./providers/cohere/provider";
import { cozeProvider } from "./providers/coze/provider";
import { difyProvider } from "./providers/dify/provider";
import { fastgptProvider } from "./providers/fastgpt/provider";
import { geminiProvider } from "./providers/gemini/provider";
import { jinaProvider } from "./providers/jina/provider";
import { midjourneyProvider } from "./providers/midjourney/provider";
import { openaiCompatibleProvider } from "./providers/openai-compatible/provider";
import { sunoProvider } from "./providers/suno/provider";
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
  [cohereProvider, "cohere"],
  [jinaProvider, "jina"],
  [difyProvider, "dify"],
  [cozeProvider, "coze"],
  [aiproxyLibraryProvider, "aiproxy-library"],
  [fastgptProvider, "fastgpt"],
  [midjourneyProvider, "midjourney"],
  [sunoProvider, "suno"],
]);

export const familyOf = (provider: Provider): string => FAMILIES.get(provider) ?? "openai";
