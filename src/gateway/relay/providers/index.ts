import { azureProvider } from "./azure";
import { openaiProvider } from "./openai";
import type { Provider } from "./types";

const AZURE = 3;

/** The module for a channel type; every type not listed speaks the OpenAI dialect. */
export function providerFor(type: number): Provider {
  return type === AZURE ? azureProvider : openaiProvider;
}
