import { expect } from "bun:test";
import { startFakeGemini } from "../../support/fake-gemini";
import { describeTranslatedChat } from "../support/translated-chat";

describeTranslatedChat({
  name: "Gemini",
  type: 24,
  model: "gemini-test",
  upstreamModel: "gemini-2.0-flash",
  key: "AIza-gemini-upstream-0123456789",
  start: (apiKey) => startFakeGemini({ apiKey }),
  cacheRatio: 0.25,
  ratio: 0.5,
  completionRatio: 4,
  promptWithCache: (input) => input,
  expectCall(request, f, stream) {
    expect(request.path).toBe(
      `/v1beta/models/${f.upstreamModel}:${stream ? "streamGenerateContent" : "generateContent"}`,
    );
    expect(request.search).toBe(stream ? "?alt=sse" : "");
    expect(request.headers["x-goog-api-key"]).toBe(f.key);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body.model).toBeUndefined();
    expect(request.body.messages).toBeUndefined();
  },
  richBody: () => ({
    contents: [
      { role: "user", parts: [{ text: "hi" }] },
      { role: "model", parts: [{ text: "hello" }] },
      {
        role: "user",
        parts: [{ text: "what is this?" }, { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }],
      },
    ],
    systemInstruction: { parts: [{ text: "Be brief.\n\nAnswer in English." }] },
    generationConfig: { maxOutputTokens: 300, temperature: 0.3, topP: 0.9, stopSequences: ["END"] },
  }),
  maxTokensOf: (body) => body.generationConfig?.maxOutputTokens,
  defaultMaxTokens: undefined,
});
