import { invalidRequest } from "../../../../shared/relay-error";
import { appConversation } from "../app-chat/query";

const FAMILY = "Coze";

const message = (role: "user" | "assistant", content: string) => ({ role, content, content_type: "text" });

/**
 * The /v3/chat body: the bot from the channel's `other`, the conversation as additional_messages (the last user
 * message is the query). Coze has no system role: the system text leads as a user message. Always streaming
 * (a whole reply from /v3/chat needs polling; it is folded from the stream instead), history not saved.
 */
export function cozeChatBody(body: Record<string, any>, botId: string): Record<string, unknown> {
  if (!botId) throw invalidRequest("the Coze channel names no bot id (the channel's bot id field)");
  const conversation = appConversation(body, FAMILY);
  return {
    bot_id: botId,
    user_id: typeof body.user === "string" && body.user ? body.user : "tollgate",
    stream: true,
    auto_save_history: false,
    additional_messages: [
      ...(conversation.system ? [message("user", conversation.system)] : []),
      ...conversation.history.map((t) => message(t.role, t.text)),
      message("user", conversation.query),
    ],
  };
}
