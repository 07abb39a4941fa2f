import { expect } from "bun:test";
import { startFakeAnthropic } from "../../support/fake-anthropic";
import { describeTranslatedChat } from "../support/translated-chat";

describeTranslatedChat({
  name: "Anthropic",
  type: 14,
  model: "claude-test",
  upstreamModel: "claude-sonnet-4-20250514",
  key: "sk-ant-upstream-0123456789",
  start: (apiKey) => startFakeAnthropic({ apiKey }),
  cacheRatio: 0.1,
  ratio: 1.5,
  completionRatio: 5,
  promptWithCache: (input, cached) => input + cached,
  expectCall(request, f, stream) {
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe(f.key);
    expect(request.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body.model).toBe(f.upstreamModel);
    expect(request.body.stream).toBe(stream ? true : undefined);
    expect(request.body.stream_options).toBeUndefined();
  },
  richBody: (f) => ({
    model: f.upstreamModel,
    max_tokens: 300,
    system: "Be brief.\n\nAnswer in English.",
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
        ],
      },
    ],
    temperature: 0.3,
    top_p: 0.9,
    stop_sequences: ["END"],
  }),
  maxTokensOf: (body) => body.max_tokens,
  defaultMaxTokens: 4096,
});
