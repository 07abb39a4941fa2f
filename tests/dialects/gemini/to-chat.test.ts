import { describe, expect, test } from "bun:test";
import { FunctionCallingConfigMode, Type } from "@google/genai";
import { RelayError } from "../../../src/shared/relay-error";
import { geminiToChat } from "../../../src/gateway/relay/dialects/gemini/to-chat";
import type { RestGenerateContent } from "./support";

const translate = (body: RestGenerateContent, stream = false) =>
  geminiToChat(body, { model: "gemini-2.5-flash", stream });

const refusal = (body: RestGenerateContent) => {
  try {
    translate(body);
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).status).toBe(400);
    return (error as RelayError).message;
  }
  throw new Error("expected a refusal");
};

describe("Gemini generateContent → pivot chat request", () => {
  test("system instruction, turns, images and the model from the path", () => {
    const { chat } = translate({
      systemInstruction: { parts: [{ text: "Be brief." }, { text: "Answer in English." }] },
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "model", parts: [{ text: "hello" }] },
        {
          role: "user",
          parts: [
            { text: "what is this?" },
            { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
            { fileData: { mimeType: "image/jpeg", fileUri: "https://example.com/cat.jpg" } },
          ],
        },
      ],
    });
    expect(chat).toEqual({
      model: "gemini-2.5-flash",
      messages: [
        { role: "system", content: "Be brief.\nAnswer in English." },
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
          ],
        },
      ],
    });
  });

  test("a content without a role is the user's; streaming asks for usage", () => {
    const { chat } = translate({ contents: [{ parts: [{ text: "hi" }] }] }, true);
    expect(chat.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(chat.stream).toBe(true);
    expect(chat.stream_options).toEqual({ include_usage: true });
  });

  test("generation config: sampling, stop sequences, max tokens; topK dropped", () => {
    const { chat } = translate({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      generationConfig: {
        temperature: 0.3,
        topP: 0.9,
        topK: 40,
        maxOutputTokens: 300,
        stopSequences: ["END"],
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        seed: 7,
        candidateCount: 1,
      },
    });
    expect(chat).toMatchObject({
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 300,
      stop: ["END"],
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      seed: 7,
    });
    expect(JSON.stringify(chat)).not.toContain("40");
  });

  test("candidateCount > 1 is the pivot's n; other output modalities and cachedContent are refused by name", () => {
    const contents = [{ role: "user", parts: [{ text: "hi" }] }];
    const asked = (candidateCount: number) =>
      geminiToChat({ contents, generationConfig: { candidateCount } }, { model: "m", stream: false }).chat.n;
    expect(asked(2)).toBe(2);
    expect(asked(1)).toBeUndefined();
    expect(refusal({ contents, generationConfig: { responseModalities: ["IMAGE" as never] } })).toContain(
      "responseModalities",
    );
    expect(refusal({ contents, generationConfig: { responseMimeType: "text/x.enum" } })).toContain("responseMimeType");
    expect(refusal({ contents, cachedContent: "cachedContents/1" } as RestGenerateContent)).toContain("cachedContent");
    expect(refusal({ contents: [] })).toContain("contents");
    expect(
      refusal({ contents: [{ role: "user", parts: [{ inlineData: { mimeType: "audio/wav", data: "AA==" } }] }] }),
    ).toContain("audio/wav");
    expect(
      refusal({ contents: [{ role: "user", parts: [{ fileData: { fileUri: "files/abc", mimeType: "image/png" } }] }] }),
    ).toContain("fileData");
    expect(refusal({ contents: [{ role: "system", parts: [{ text: "x" }] }] })).toContain("role");
  });

  test("JSON mode: a schema (OpenAPI or JSON Schema) becomes json_schema, none json_object", () => {
    const contents = [{ role: "user", parts: [{ text: "list" }] }];
    expect(
      translate({ contents, generationConfig: { responseMimeType: "application/json" } }).chat.response_format,
    ).toEqual({ type: "json_object" });
    const openapi = translate({
      contents,
      generationConfig: {
        responseMimeType: "application/json",
        responseSchema: {
          type: Type.OBJECT,
          properties: {
            name: { type: Type.STRING, nullable: true },
            tags: { type: Type.ARRAY, items: { type: Type.STRING } },
          },
          required: ["name"],
          propertyOrdering: ["name", "tags"],
        },
      },
    });
    expect(openapi.chat.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "response",
        schema: {
          type: "object",
          properties: { name: { type: ["string", "null"] }, tags: { type: "array", items: { type: "string" } } },
          required: ["name"],
        },
      },
    });
    const jsonSchema = { type: "object", properties: { n: { type: "integer" } } };
    const direct = translate({
      contents,
      generationConfig: { responseMimeType: "application/json", responseJsonSchema: jsonSchema },
    });
    expect(direct.chat.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "response", schema: jsonSchema },
    });
  });

  test("thinking: budget, level, includeThoughts; a dynamic budget (-1) is left to the upstream", () => {
    const contents = [{ role: "user", parts: [{ text: "think" }] }];
    const on = translate({
      contents,
      generationConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
    });
    expect(on.chat.thinking_budget).toBe(2048);
    expect(on.includeThoughts).toBe(true);
    const off = translate({ contents, generationConfig: { thinkingConfig: { thinkingBudget: 0 } } });
    expect(off.chat.thinking_budget).toBe(0);
    expect(off.includeThoughts).toBe(false);
    const dynamic = translate({ contents, generationConfig: { thinkingConfig: { thinkingBudget: -1 } } });
    expect(dynamic.chat.thinking_budget).toBeUndefined();
    const level = translate({ contents, generationConfig: { thinkingConfig: { thinkingLevel: "HIGH" as never } } });
    expect(level.chat.reasoning_effort).toBe("high");
  });

  test("function declarations (OpenAPI parameters or parametersJsonSchema) become tools; hosted tools are named", () => {
    const { chat, droppedTools } = translate({
      contents: [{ role: "user", parts: [{ text: "weather?" }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: "get_weather",
              description: "Weather of a city",
              parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ["city"] },
            },
            { name: "now", parametersJsonSchema: { type: "object", properties: {} } },
          ],
        },
        { googleSearch: {} },
        { codeExecution: {} },
      ],
    });
    expect(chat.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Weather of a city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      },
      { type: "function", function: { name: "now", parameters: { type: "object", properties: {} } } },
    ]);
    expect(chat.tool_choice).toBeUndefined();
    expect(droppedTools).toEqual(["googleSearch", "codeExecution"]);
  });

  test("functionCallingConfig: AUTO, NONE, ANY, ANY with one or several allowed names", () => {
    const contents = [{ role: "user", parts: [{ text: "go" }] }];
    const tools = [{ functionDeclarations: [{ name: "a" }, { name: "b" }, { name: "c" }] }];
    const choice = (mode: FunctionCallingConfigMode, allowedFunctionNames?: string[]) =>
      translate({ contents, tools, toolConfig: { functionCallingConfig: { mode, allowedFunctionNames } } }).chat;
    expect(choice(FunctionCallingConfigMode.AUTO).tool_choice).toBe("auto");
    expect(choice(FunctionCallingConfigMode.NONE).tool_choice).toBe("none");
    expect(choice(FunctionCallingConfigMode.ANY).tool_choice).toBe("required");
    const one = choice(FunctionCallingConfigMode.ANY, ["b"]);
    expect(one.tool_choice).toEqual({ type: "function", function: { name: "b" } });
    expect(one.tools?.map((t) => t.function.name)).toEqual(["b"]);
    const two = choice(FunctionCallingConfigMode.ANY, ["a", "c"]);
    expect(two.tool_choice).toBe("required");
    expect(two.tools?.map((t) => t.function.name)).toEqual(["a", "c"]);
  });

  test("function calls get stable ids and their responses answer them by name and order", () => {
    const body: RestGenerateContent = {
      contents: [
        { role: "user", parts: [{ text: "weather in Paris and Rome, and the time?" }] },
        {
          role: "model",
          parts: [
            { text: "Checking.", thought: true, thoughtSignature: "sig" },
            { functionCall: { name: "get_weather", args: { city: "Paris" } } },
            { functionCall: { name: "get_weather", args: { city: "Rome" } } },
            { functionCall: { name: "now", args: {} } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "now", response: { time: "12:00" } } },
            { functionResponse: { name: "get_weather", response: { temp: 20 } } },
            { functionResponse: { name: "get_weather", response: { temp: 25 } } },
          ],
        },
        { role: "model", parts: [{ text: "Paris 20, Rome 25, noon." }] },
        { role: "user", parts: [{ text: "thanks" }] },
      ],
    };
    const { chat } = translate(body);
    expect(chat.messages).toEqual([
      { role: "user", content: "weather in Paris and Rome, and the time?" },
      {
        role: "assistant",
        content: null,
        reasoning_content: "Checking.",
        tool_calls: [
          {
            id: "call_0_get_weather",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris"}' },
          },
          {
            id: "call_1_get_weather",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Rome"}' },
          },
          { id: "call_2_now", type: "function", function: { name: "now", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_2_now", content: '{"time":"12:00"}' },
      { role: "tool", tool_call_id: "call_0_get_weather", content: '{"temp":20}' },
      { role: "tool", tool_call_id: "call_1_get_weather", content: '{"temp":25}' },
      { role: "assistant", content: "Paris 20, Rome 25, noon." },
      { role: "user", content: "thanks" },
    ]);
    // The same history sent again gets the same ids.
    expect(translate(body).chat).toEqual(chat);
  });

  test("ids the client sends on calls and responses are kept and matched", () => {
    const { chat } = translate({
      contents: [
        { role: "user", parts: [{ text: "go" }] },
        {
          role: "model",
          parts: [
            { functionCall: { id: "call_x", name: "f", args: { n: 1 } } },
            { functionCall: { id: "call_y", name: "f", args: { n: 2 } } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { id: "call_y", name: "f", response: { r: 2 } } },
            { functionResponse: { id: "call_x", name: "f", response: { r: 1 } } },
            { text: "and now?" },
          ],
        },
      ],
    });
    expect(chat.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "call_y", content: '{"r":2}' },
      { role: "tool", tool_call_id: "call_x", content: '{"r":1}' },
      { role: "user", content: "and now?" },
    ]);
  });
});
