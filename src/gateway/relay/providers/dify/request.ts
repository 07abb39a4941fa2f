import { appConversation, transcriptOf } from "../app-chat/query";

const FAMILY = "Dify";

/**
 * The /v1/chat-messages body: the last user message is the query. Dify keeps a conversation's history itself,
 * by conversation_id: a client naming one (a Dify extension of the request) sends the query alone; otherwise the
 * earlier turns travel before the query as a transcript, so the app answers the conversation it was given.
 * Always streaming: Dify's agent apps answer no other way (a whole reply is folded from the stream).
 */
export function difyChatBody(body: Record<string, any>): Record<string, unknown> {
  const conversation = appConversation(body, FAMILY);
  const conversationId = typeof body.conversation_id === "string" ? body.conversation_id : "";
  const before = conversationId ? "" : transcriptOf(conversation);
  return {
    inputs: body.inputs && typeof body.inputs === "object" ? body.inputs : {},
    query: before ? `${before}\n\nuser: ${conversation.query}` : conversation.query,
    response_mode: "streaming",
    user: typeof body.user === "string" && body.user ? body.user : "tollgate",
    ...(conversationId && { conversation_id: conversationId }),
  };
}
