import { expect } from "bun:test";
import { DIFY_ANSWER, DIFY_USAGE, startFakeDify } from "../../support/fake-dify";
import { describeChatThroughGateway } from "../support/app-chat-through-gateway";

describeChatThroughGateway({
  name: "Dify",
  type: 37,
  other: "",
  start: startFakeDify,
  answer: DIFY_ANSWER.join(""),
  refusesTools: true,
  usage: DIFY_USAGE,
  expectConversation(seen, _stream, probe) {
    expect(seen.path).toBe("/v1/chat-messages");
    if (probe) return expect(seen.body).toMatchObject({ query: "hi", response_mode: "streaming" });
    // Streaming whatever the client asked: agent apps answer no other way.
    expect(seen.body).toEqual({
      inputs: {},
      query: "Be brief.\n\nuser: hi\n\nassistant: hello\n\nuser: and you?",
      response_mode: "streaming",
      user: "tollgate",
    });
  },
});
