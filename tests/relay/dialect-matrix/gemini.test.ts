import { expect } from "bun:test";
import {
  FunctionCallingConfigMode,
  GoogleGenAI,
  type Content,
  type GenerateContentResponse,
  type GenerateContentResponseUsageMetadata,
} from "@google/genai";
import type { RelayEnv } from "../support";
import {
  describeMatrix,
  LIMIT,
  STOP_MARK,
  SYSTEM_MARK,
  FORECAST_SCHEMA,
  TINY_PNG,
  TOOL_RESULT,
  WEATHER,
  WEATHER_SCHEMA,
  type Seen,
} from "./matrix";

const client = (r: RelayEnv) => new GoogleGenAI({ apiKey: r.key, httpOptions: { baseUrl: r.s.url } });
/** Gemini's candidatesTokenCount leaves out thoughts; promptTokenCount includes cached content. */
const tokens = (u: GenerateContentResponseUsageMetadata | undefined): Seen["usage"] => ({
  prompt: u?.promptTokenCount ?? 0,
  completion: (u?.candidatesTokenCount ?? 0) + (u?.thoughtsTokenCount ?? 0),
  cached: u?.cachedContentTokenCount ?? 0,
  reasoning: u?.thoughtsTokenCount ?? 0,
});
const seen = (reply: GenerateContentResponse): Seen => ({ text: reply.text ?? "", usage: tokens(reply.usageMetadata) });

const config = { tools: [{ functionDeclarations: [{ name: WEATHER.name, parametersJsonSchema: WEATHER_SCHEMA }] }] };

describeMatrix({
  inbound: "gemini",
  sdk: "@google/genai",
  budgetOnly: true,
  stopSequences: true,
  async text(r, model) {
    return seen(await client(r).models.generateContent({ model, contents: "hi" }));
  },
  async stream(r, model) {
    let text = "";
    let usage: GenerateContentResponseUsageMetadata | undefined;
    for await (const chunk of await client(r).models.generateContentStream({ model, contents: "hi" })) {
      text += chunk.text ?? "";
      usage = chunk.usageMetadata ?? usage;
    }
    return { text, usage: tokens(usage) };
  },
  async toolRoundTrip(r, model) {
    const config = {
      tools: [{ functionDeclarations: [{ name: WEATHER.name, parametersJsonSchema: WEATHER_SCHEMA }] }],
    };
    const question: Content = { role: "user", parts: [{ text: "Weather in Paris?" }] };
    const first = await client(r).models.generateContent({ model, contents: [question], config });
    const call = first.functionCalls![0]!;
    const second = await client(r).models.generateContent({
      model,
      config,
      contents: [
        question,
        first.candidates![0]!.content!,
        {
          role: "user",
          parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: TOOL_RESULT } } }],
        },
      ],
    });
    return { name: call.name!, args: call.args, text: second.text ?? "" };
  },
  async streamedToolCall(r, model) {
    const calls = [];
    for await (const chunk of await client(r).models.generateContentStream({
      model,
      contents: "Weather in Paris?",
      config: {
        ...config,
        toolConfig: {
          functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [WEATHER.name] },
        },
      },
    })) {
      calls.push(...(chunk.functionCalls ?? []));
    }
    expect(calls).toHaveLength(1);
    return { name: calls[0]!.name!, args: calls[0]!.args };
  },
  async jsonSchema(r, model) {
    const config = { responseMimeType: "application/json", responseJsonSchema: FORECAST_SCHEMA };
    return (await client(r).models.generateContent({ model, contents: "hi", config })).text ?? "";
  },
  async limited(r, model) {
    const reply = await client(r).models.generateContent({
      model,
      contents: "hi",
      config: {
        systemInstruction: SYSTEM_MARK,
        stopSequences: [STOP_MARK],
        temperature: 0.25,
        topP: 0.5,
        maxOutputTokens: LIMIT,
      },
    });
    return { text: reply.text ?? "", cut: reply.candidates?.[0]?.finishReason === "MAX_TOKENS" };
  },
  async thinking(r, model) {
    const config = { thinkingConfig: { thinkingBudget: 1024 } };
    return (await client(r).models.generateContent({ model, contents: "hi", config })).text ?? "";
  },
  async image(r, model) {
    const reply = await client(r).models.generateContent({
      model,
      contents: [
        { role: "user", parts: [{ text: "What is this?" }, { inlineData: { mimeType: "image/png", data: TINY_PNG } }] },
      ],
    });
    return reply.text ?? "";
  },
});
