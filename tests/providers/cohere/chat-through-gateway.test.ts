import { expect } from "bun:test";
import { COHERE_ANSWER, COHERE_USAGE, startFakeCohere } from "../../support/fake-cohere";
import { describeChatThroughGateway } from "../support/app-chat-through-gateway";

describeChatThroughGateway({
  name: "Cohere",
  type: 34,
  other: "",
  start: startFakeCohere,
  answer: COHERE_ANSWER.join(""),
  refusesTools: false,
  // Billed from what Cohere bills (billed_units), not the template-inclusive token counts it also reports.
  usage: { prompt: COHERE_USAGE.input, completion: COHERE_USAGE.output },
  expectConversation(seen, stream, probe) {
    expect(seen.path).toBe("/v2/chat");
    if (probe) return expect(seen.body).toMatchObject({ messages: [{ role: "user", content: "hi" }], max_tokens: 16 });
    expect(seen.body).toMatchObject({
      model: "family-chat-model",
      stream,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
        { role: "user", content: "and you?" },
      ],
    });
  },
});
