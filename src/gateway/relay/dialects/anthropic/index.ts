import type { InboundDialect } from "../types";
import { anthropicErrorBody } from "./errors";
import { chatToAnthropic } from "./from-chat";
import { messagesPassage } from "./native";
import { chatStreamToAnthropic, wholeChatStreamToAnthropic } from "./stream";
import { anthropicToChat } from "./to-chat";

/** Anthropic Messages (POST /v1/messages): the key in x-api-key (Claude Code) or Authorization: Bearer. */
export const anthropicDialect: InboundDialect = {
  name: "anthropic",
  nativeFamily: "anthropic",
  authorization(request) {
    const key = request.headers.get("x-api-key");
    return key ? `Bearer ${key.trim()}` : request.headers.get("authorization");
  },
  toChat: anthropicToChat,
  fromChat: chatToAnthropic,
  streamFromChat: (pivot, model, { wording }) => chatStreamToAnthropic(pivot, model, wording),
  wholeStreamFromChat: (pivot, model, { wording }) => wholeChatStreamToAnthropic(pivot, model, wording),
  errorBody: anthropicErrorBody,
  native: messagesPassage,
};
