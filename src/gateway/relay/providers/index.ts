import { ANTHROPIC_TYPE, GEMINI_TYPE } from "../../../service/channels/dialects";
import { anthropicProvider } from "./anthropic";
import { azureProvider } from "./azure";
import { geminiProvider } from "./gemini";
import { openaiProvider } from "./openai";
import type { Provider } from "./types";

/** Azure OpenAI's channel type (compat §8.1); the others come with their dialects. */
const AZURE = 3;

/** The module for a channel type; every type not listed speaks the OpenAI dialect. */
export function providerFor(type: number): Provider {
  switch (type) {
    case AZURE:
      return azureProvider;
    case ANTHROPIC_TYPE:
      return anthropicProvider;
    case GEMINI_TYPE:
      return geminiProvider;
    default:
      return openaiProvider;
  }
}
