import { expect } from "bun:test";
import { FASTGPT_ANSWER, FASTGPT_USAGE, startFakeFastGpt } from "../../support/fake-fastgpt";
import { describeChatThroughGateway } from "../support/app-chat-through-gateway";

const APP = "kb-app-42";

describeChatThroughGateway({
  name: "FastGPT",
  type: 22,
  other: APP,
  // The channel's knowledge base ID rides on the key as FastGPT takes it: `<key>-<appId>`.
  start: (key) => startFakeFastGpt(`${key}-${APP}`),
  answer: FASTGPT_ANSWER.join(""),
  refusesTools: false,
  usage: FASTGPT_USAGE,
  expectConversation(seen, stream, probe) {
    expect(seen.path).toBe("/v1/chat/completions");
    if (probe) return expect(seen.body.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(Boolean(seen.body.stream)).toBe(stream);
    expect(seen.body).toMatchObject({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
        { role: "user", content: "and you?" },
      ],
    });
  },
});
