import type { DialectCall, InboundDialect, RouteFacts } from "../types";
import { geminiKey } from "./auth";
import { countTokensReply, countTokensTexts } from "./count-tokens";
import { batchEmbedReplyOf, batchEmbedToOpenAI, embedReplyOf, embedToOpenAI } from "./embed";
import { geminiErrorBody } from "./errors";
import { chatToGemini } from "./from-chat";
import { generateContentPassage } from "./native";
import { type GeminiStreamOptions, geminiStream, streamFormOf, wholeGeminiStream } from "./stream";
import type { GeminiRequest } from "./request";
import { geminiToChat } from "./to-chat";
import { hostedToolsOf } from "./tools";

const includeThoughts = ({ body }: DialectCall) => body.generationConfig?.thinkingConfig?.includeThoughts === true;

/** The generateContent request of a call: countTokens wraps it (or sends bare contents). */
function generateRequestOf(body: Record<string, any>, route: RouteFacts) {
  if (!route.countOnly) return body;
  countTokensTexts(body);
  return body.generateContentRequest ?? { contents: body.contents };
}

const isBatch = (route: RouteFacts) => route.action === "batchEmbedContents";

const streamOptions = (model: string, call: DialectCall): GeminiStreamOptions => ({
  form: streamFormOf(call.route.url).form,
  includeThoughts: includeThoughts(call),
  model,
  wording: call.wording,
});

/** Gemini (POST /v1beta/models/{model}:{action}): the key in x-goog-api-key or ?key=, the model in the path. */
export const geminiDialect: InboundDialect = {
  name: "gemini",
  nativeFamily: "gemini",
  authorization(request, url) {
    const key = geminiKey(request.headers, url);
    return key ? `Bearer ${key}` : request.headers.get("authorization");
  },
  toChat: (body, route) =>
    geminiToChat(generateRequestOf(body, route), { model: route.model ?? "", stream: route.stream === true }).chat,
  fromChat: (reply, model, call) => chatToGemini(reply, { includeThoughts: includeThoughts(call), model }),
  streamFromChat: (pivot, model, call) => geminiStream(pivot, streamOptions(model, call)),
  wholeStreamFromChat: (pivot, model, call) => wholeGeminiStream(pivot, streamOptions(model, call)),
  streamContentType: (route) => streamFormOf(route.url).contentType,
  countReply: countTokensReply,
  embeddings: {
    toOpenAI: (body, route) =>
      isBatch(route) ? batchEmbedToOpenAI(body, route.model ?? "") : embedToOpenAI(body, route.model ?? ""),
    fromOpenAI: (reply, route) => (isBatch(route) ? batchEmbedReplyOf(reply) : embedReplyOf(reply)),
  },
  translatedNotes(body) {
    const dropped = hostedToolsOf(body as GeminiRequest);
    return dropped.length > 0 ? { dropped_tools: dropped } : undefined;
  },
  errorBody: ({ status, message }) => geminiErrorBody(status, message),
  native: generateContentPassage,
};
