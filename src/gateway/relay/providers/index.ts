import { anthropicProvider } from "./anthropic";
import { azureProvider } from "./azure";
import { geminiProvider } from "./gemini";
import { openaiProvider } from "./openai";
import type { Provider } from "./types";

/** Channel type numbers (compat §8.1) of the families that do not speak plain OpenAI. */
const AZURE = 3;
const ANTHROPIC = 14;
const GEMINI = 24;

/** The module for a channel type; every type not listed speaks the OpenAI dialect. */
export function providerFor(type: number): Provider {
  switch (type) {
    case AZURE:
      return azureProvider;
    case ANTHROPIC:
      return anthropicProvider;
    case GEMINI:
      return geminiProvider;
    default:
      return openaiProvider;
  }
}
