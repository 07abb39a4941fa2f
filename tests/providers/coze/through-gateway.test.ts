import { expect } from "bun:test";
import { COZE_ANSWER, COZE_USAGE, startFakeCoze } from "../../support/fake-coze";
import { describeChatThroughGateway } from "../support/app-chat-through-gateway";

const BOT = "7342866812345678901";
const text = (role: string, content: string) => ({ role, content, content_type: "text" });

describeChatThroughGateway({
  name: "Coze",
  type: 49,
  other: BOT,
  start: (key) => startFakeCoze(key, BOT),
  answer: COZE_ANSWER.join(""),
  refusesTools: true,
  usage: { prompt: COZE_USAGE.input, completion: COZE_USAGE.output },
  expectConversation(seen, _stream, probe) {
    expect(seen.path).toBe("/v3/chat");
    if (probe) return expect(seen.body).toMatchObject({ bot_id: BOT, additional_messages: [text("user", "hi")] });
    expect(seen.body).toEqual({
      bot_id: BOT,
      user_id: "tollgate",
      stream: true,
      auto_save_history: false,
      additional_messages: [
        text("user", "Be brief."),
        text("user", "hi"),
        text("assistant", "hello"),
        text("user", "and you?"),
      ],
    });
  },
});
