import { expect } from "bun:test";
import { sse } from "../support/mapped-stream";
import { describeToolsThroughGateway } from "../support/tools-through-gateway";

const usageMetadata = {
  promptTokenCount: 120,
  cachedContentTokenCount: 100,
  candidatesTokenCount: 30,
  thoughtsTokenCount: 12,
  totalTokenCount: 162,
};
const call = (city: string) => ({ functionCall: { name: "get_weather", args: { city } } });
const reply = (parts: object[]) => ({
  candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }],
  usageMetadata,
  modelVersion: "gemini-x",
  responseId: "resp_t",
});

describeToolsThroughGateway({
  name: "Gemini",
  type: 24,
  usage: { prompt: 120, completion: 42, cached: 100, written: 0, reasoning: 12 },
  toolCalls: (stream) =>
    stream
      ? sse([
          { candidates: [{ content: { role: "model", parts: [{ text: "Checking", thought: true }] } }] },
          reply([call("Paris"), call("Rome")]),
        ])
      : reply([call("Paris"), call("Rome")]),
  text: (text) => reply([{ text }]),
  toolNames: (body) => body.tools[0].functionDeclarations.map((t: any) => t.name),
  toolAnswers: (body) => body.contents.at(-1),
  expectedAnswers: {
    role: "user",
    parts: [
      { functionResponse: { name: "get_weather", response: { output: "sunny" } } },
      { functionResponse: { name: "get_weather", response: { output: "rain" } } },
    ],
  },
  expectJsonMode(body, schema) {
    expect(body.generationConfig).toEqual({ responseMimeType: "application/json", responseJsonSchema: schema });
  },
});
