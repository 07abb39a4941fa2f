import type { InboundDialect } from "../types";
import { openaiErrorBody } from "./errors";
import { chatToResponse } from "./from-chat";
import { responsesPassage } from "./native";
import type { ResponsesContext } from "./response-object";
import { chatStreamToResponses } from "./stream";
import { responsesToChat, type TranslatedRequest } from "./to-chat";

/**
 * Each request body's translation, kept for its reply (tool names) and log row (hosted tools left out); or why it
 * cannot be translated, which refuses the call only where it is translated (OpenAI itself takes
 * previous_response_id, stored files…).
 */
const translations = new WeakMap<object, TranslatedRequest | Error>();

function attempt(body: Record<string, any>): TranslatedRequest | Error {
  let found = translations.get(body);
  if (!found) {
    try {
      found = responsesToChat(body);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      found = error;
    }
    translations.set(body, found);
  }
  return found;
}

function translated(body: Record<string, any>): TranslatedRequest {
  const found = attempt(body);
  if (found instanceof Error) throw found;
  return found;
}

/** The call as the gateway prices it when it cannot be translated: the whole input as the prompt. */
function untranslatedPivot(body: Record<string, any>): Record<string, any> {
  const input = typeof body.input === "string" ? body.input : JSON.stringify(body.input ?? "");
  const model = typeof body.model === "string" ? body.model : undefined;
  return { model, messages: [{ role: "user", content: input }], stream: body.stream === true };
}

const contextOf = (body: Record<string, any> | undefined, model: string): ResponsesContext => {
  const request = body ?? { model };
  return { request: { ...request, model }, toolNames: body ? translated(body).toolNames : {} };
};

/**
 * OpenAI Responses (POST /v1/responses): the key in Authorization: Bearer, OpenAI's error shape. Passed through
 * to OpenAI-family channels; translated to chat completions on the others (and on OpenAI-compatible upstreams
 * without the endpoint), hosted tools left out and named in the log row.
 */
export const responsesDialect: InboundDialect = {
  name: "responses",
  nativeFamily: "openai",
  nativeFamilies: ["openai", "azure"],
  authorization: (request) => request.headers.get("authorization"),
  toChat(body) {
    if (typeof body.model !== "string" || !body.model) return translated(body).chat;
    const found = attempt(body);
    return found instanceof Error ? untranslatedPivot(body) : found.chat;
  },
  untranslatable(body) {
    const found = attempt(body);
    return found instanceof Error ? found : undefined;
  },
  fromChat: (reply, model, { body }) => chatToResponse({ ...reply, model } as any, contextOf(body, model)),
  streamFromChat: (pivot, model, { body, wording }) => chatStreamToResponses(pivot, contextOf(body, model), wording),
  translatedNotes(body) {
    const found = attempt(body);
    if (found instanceof Error || found.hostedTools.length === 0) return undefined;
    return { dropped_tools: found.hostedTools };
  },
  errorBody: openaiErrorBody,
  native: responsesPassage,
};
