import { expectShape, namedEvents, startLoopbackFake } from "./loopback-fake";

export const COZE_USAGE = { input: 44, output: 6 };
export const COZE_ANSWER = ["Coze", " bot", " here"];

/** A loopback Coze v3 chat API: POST /v3/chat with the token, the bot id and additional_messages; named events. */
export function startFakeCoze(key: string, botId: string) {
  return startLoopbackFake(key, ({ path, body }) => {
    if (path !== "/v3/chat") return Response.json({ code: 4000, msg: "not found" }, { status: 404 });
    if (body?.bot_id !== botId) return Response.json({ code: 4200, msg: "bot not found" });
    expectShape(typeof body.user_id === "string" && body.user_id, "user_id is required");
    expectShape(body.stream === true, "this fake answers streams only");
    const messages = body.additional_messages;
    expectShape(Array.isArray(messages) && messages.length, "additional_messages is required");
    for (const m of messages)
      expectShape(["user", "assistant"].includes(m.role) && m.content_type === "text", "invalid message");
    const chat = { id: "chat-7", conversation_id: "conv-7", bot_id: botId };
    const answer = (content: string) => ({
      ...chat,
      chat_id: chat.id,
      role: "assistant",
      type: "answer",
      content,
      content_type: "text",
    });
    return namedEvents([
      ["conversation.chat.created", { ...chat, status: "created" }],
      ["conversation.chat.in_progress", { ...chat, status: "in_progress" }],
      ...COZE_ANSWER.map((text): [string, object] => ["conversation.message.delta", answer(text)]),
      ["conversation.message.completed", answer(COZE_ANSWER.join(""))],
      ["conversation.message.completed", { ...answer("Ask me more?"), type: "follow_up" }],
      [
        "conversation.chat.completed",
        {
          ...chat,
          status: "completed",
          usage: {
            token_count: COZE_USAGE.input + COZE_USAGE.output,
            input_count: COZE_USAGE.input,
            output_count: COZE_USAGE.output,
          },
        },
      ],
      ["done", {}],
    ]);
  });
}
