import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiError, FunctionCallingConfigMode, GoogleGenAI, Type } from "@google/genai";
import { RelayError } from "../../../src/shared/relay-error";
import { geminiKey } from "../../../src/gateway/relay/dialects/gemini/auth";
import { countTokensReply, countTokensTexts } from "../../../src/gateway/relay/dialects/gemini/count-tokens";
import { batchEmbedReplyOf, batchEmbedToOpenAI } from "../../../src/gateway/relay/dialects/gemini/embed";
import { geminiErrorBody, geminiErrorOf } from "../../../src/gateway/relay/dialects/gemini/errors";
import { chatToGemini } from "../../../src/gateway/relay/dialects/gemini/from-chat";
import { modelActionOf } from "../../../src/gateway/relay/dialects/gemini/model-path";
import { geminiModel, geminiModelList } from "../../../src/gateway/relay/dialects/gemini/models";
import { geminiStream, streamFormOf } from "../../../src/gateway/relay/dialects/gemini/stream";
import { geminiToChat } from "../../../src/gateway/relay/dialects/gemini/to-chat";
import type { PivotRequest, PivotToolCall, PivotUsage } from "../../../src/gateway/relay/dialects/gemini/pivot";
import { chunk, pivotSse, usageChunk } from "./support";

/**
 * The real @google/genai client against a loopback server that speaks Gemini through these modules only, with a
 * scripted pivot upstream: proves the SDK's requests are read and our replies are what the SDK parses.
 */
const KEY = "sk-gemini-inbound-test";
const MODELS = ["gemini-2.5-flash", "text-embedding-004"];
const seen: PivotRequest[] = [];

interface ScriptedReply {
  id: string;
  model: string;
  choices: {
    index: number;
    message: { content: string | null; reasoning_content?: string; tool_calls?: PivotToolCall[] };
    finish_reason: string;
  }[];
  usage: PivotUsage;
}

function pivotReply(chat: PivotRequest): ScriptedReply {
  const asked = chat.messages.at(-1);
  if (chat.n && chat.n > 1) {
    return {
      id: "chatcmpl-n",
      model: chat.model,
      choices: Array.from({ length: chat.n }, (_, index) => ({
        index,
        message: { content: `answer ${index}` },
        finish_reason: "stop",
      })),
      usage: { prompt_tokens: 5, completion_tokens: 2 * chat.n, total_tokens: 5 + 2 * chat.n },
    };
  }
  if (chat.tools?.length && asked?.role === "user") {
    return {
      id: "chatcmpl-t",
      model: chat.model,
      choices: [
        {
          index: 0,
          message: {
            content: null,
            tool_calls: [
              {
                id: "call_w",
                type: "function" as const,
                function: { name: "get_weather", arguments: '{"city":"Paris"}' },
              },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
    };
  }
  return {
    id: "chatcmpl-a",
    model: chat.model,
    choices: [
      { index: 0, message: { content: "It is 20 degrees.", reasoning_content: "look it up" }, finish_reason: "stop" },
    ],
    usage: {
      prompt_tokens: 30,
      completion_tokens: 9,
      total_tokens: 39,
      prompt_tokens_details: { cached_tokens: 10 },
      completion_tokens_details: { reasoning_tokens: 4 },
    },
  };
}

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (geminiKey(request.headers, url) !== KEY)
    return Response.json(geminiErrorBody(401, "API key not valid"), { status: 401 });
  // @google/genai 3.x calls /v1/models/…, older clients and Gemini CLI /v1beta/models/…: both are Gemini routes.
  const tail = url.pathname.replace(/^\/v1(beta)?\//, "");
  if (request.method === "GET" && tail === "models") return Response.json(geminiModelList(MODELS));
  if (request.method === "GET") {
    const name = tail.replace(/^models\//, "");
    if (!MODELS.includes(name)) return Response.json(geminiErrorBody(404, `model ${name} not found`), { status: 404 });
    return Response.json(geminiModel(name));
  }
  const { model, action } = modelActionOf(tail);
  const body = await request.json();
  if (action === "countTokens")
    return Response.json(countTokensReply(countTokensTexts(body).join(" ").split(" ").length));
  if (action === "batchEmbedContents") {
    const embedding = batchEmbedToOpenAI(body, model);
    const inputs = [embedding.input].flat();
    return Response.json(
      batchEmbedReplyOf({ data: inputs.map((text, index) => ({ index, embedding: [text.length] })) }),
    );
  }
  const stream = action === "streamGenerateContent";
  const { chat, includeThoughts } = geminiToChat(body, { model, stream });
  seen.push(chat);
  const reply = pivotReply(chat);
  if (!stream) return Response.json(chatToGemini(reply, { includeThoughts, model }));
  const choice = reply.choices[0]!;
  // Several choices stream interleaved, as OpenAI sends them: a character of each in turn.
  const severalChoices =
    reply.choices.length > 1
      ? [
          ...[...choice.message.content!].flatMap((_, at) =>
            reply.choices.map((c) => chunk({ content: c.message.content![at] }, null, c.index)),
          ),
          ...reply.choices.map((c) => chunk({}, c.finish_reason, c.index)),
          usageChunk(reply.usage),
        ]
      : undefined;
  const pivot = pivotSse(
    severalChoices ?? [
      chunk({ role: "assistant", content: "" }),
      ...(choice.message.tool_calls ?? []).map((call, index) =>
        chunk({
          tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
        }),
      ),
      ...(choice.message.tool_calls ?? []).map((call, index) =>
        chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }),
      ),
      ...[...(choice.message.content ?? "")].map((char) => chunk({ content: char })),
      chunk({}, choice.finish_reason),
      usageChunk(reply.usage),
    ],
  );
  const { form, contentType } = streamFormOf(url);
  const bytes = new TextEncoder().encode(pivot);
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 7) controller.enqueue(bytes.slice(at, at + 7));
      controller.close();
    },
  });
  return new Response(geminiStream(source, { form, includeThoughts, model }), {
    headers: { "content-type": contentType },
  });
}

let server: ReturnType<typeof Bun.serve>;
let ai: GoogleGenAI;

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) =>
      handle(request).catch((error) => {
        if (!(error instanceof RelayError)) throw error;
        return Response.json(geminiErrorOf(error), { status: error.status });
      }),
  });
  ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: `http://127.0.0.1:${server.port}` } });
});
afterAll(() => server.stop(true));

const weatherTool = {
  functionDeclarations: [
    {
      name: "get_weather",
      description: "Weather of a city",
      parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ["city"] },
    },
  ],
};

describe("the @google/genai SDK through the Gemini translation", () => {
  test("generateContent: text, thoughts and usage as the SDK reads them", async () => {
    const reply = await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents: "How warm is Paris?",
      config: {
        systemInstruction: "Be brief.",
        temperature: 0.2,
        thinkingConfig: { includeThoughts: true, thinkingBudget: 512 },
      },
    });
    expect(reply.text).toBe("It is 20 degrees.");
    expect(reply.candidates?.[0]?.content?.parts?.[0]).toEqual({ text: "look it up", thought: true });
    expect(reply.usageMetadata).toMatchObject({
      promptTokenCount: 30,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 4,
      cachedContentTokenCount: 10,
      totalTokenCount: 39,
    });
    expect(seen.at(-1)).toMatchObject({
      model: "gemini-2.5-flash",
      temperature: 0.2,
      thinking_budget: 512,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "How warm is Paris?" },
      ],
    });
  });

  test("tools round trip: functionCalls read by the SDK, the response sent back answers the same call id", async () => {
    const question = { role: "user", parts: [{ text: "Weather in Paris?" }] };
    const config = {
      tools: [weatherTool],
      toolConfig: {
        functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ["get_weather"] },
      },
    };
    const first = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: [question], config });
    expect(first.functionCalls).toEqual([{ id: "call_w", name: "get_weather", args: { city: "Paris" } }]);
    expect(seen.at(-1)?.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
    const call = first.functionCalls![0]!;
    const second = await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents: [
        question,
        first.candidates![0]!.content!,
        { role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response: { temp: 20 } } }] },
      ],
      config,
    });
    expect(second.text).toBe("It is 20 degrees.");
    expect(seen.at(-1)?.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_w", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_w", content: '{"temp":20}' },
    ]);
  });

  test("generateContentStream (alt=sse): text deltas, whole function calls, usage on the last", async () => {
    let text = "";
    const usage = [];
    for await (const part of await ai.models.generateContentStream({
      model: "gemini-2.5-flash",
      contents: "Grüße 🌍",
    })) {
      text += part.text ?? "";
      if (part.usageMetadata) usage.push(part.usageMetadata);
    }
    expect(text).toBe("It is 20 degrees.");
    expect(usage).toEqual([
      {
        promptTokenCount: 30,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 4,
        cachedContentTokenCount: 10,
        totalTokenCount: 39,
      },
    ]);
    const calls = [];
    for await (const part of await ai.models.generateContentStream({
      model: "gemini-2.5-flash",
      contents: "Weather in Paris?",
      config: { tools: [weatherTool] },
    })) {
      calls.push(...(part.functionCalls ?? []));
    }
    expect(calls).toEqual([{ id: "call_w", name: "get_weather", args: { city: "Paris" } }]);
  });

  test("the JSON-array stream form (no alt=sse) is one valid JSON array", async () => {
    const response = await fetch(
      `http://127.0.0.1:${server.port}/v1beta/models/gemini-2.5-flash:streamGenerateContent`,
      {
        method: "POST",
        headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
        body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
      },
    );
    expect(response.headers.get("content-type")).toBe("application/json");
    const items = (await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] }[];
    expect(items.flatMap((item) => item.candidates[0]!.content.parts.map((p) => p.text ?? "")).join("")).toBe(
      "It is 20 degrees.",
    );
  });

  test("countTokens, embedContent, models.list and models.get", async () => {
    expect((await ai.models.countTokens({ model: "gemini-2.5-flash", contents: "one two three" })).totalTokens).toBe(3);
    const embedded = await ai.models.embedContent({ model: "text-embedding-004", contents: ["abc", "hello"] });
    expect(embedded.embeddings).toEqual([{ values: [3] }, { values: [5] }]);
    const names = [];
    for await (const model of await ai.models.list()) names.push(model.name);
    expect(names).toEqual(["models/gemini-2.5-flash", "models/text-embedding-004"]);
    const model = await ai.models.get({ model: "gemini-2.5-flash" });
    expect(model.supportedActions).toEqual(["generateContent", "streamGenerateContent", "countTokens"]);
  });

  test("errors reach the SDK as ApiError with Google's status", async () => {
    const failing = new GoogleGenAI({ apiKey: "wrong", httpOptions: { baseUrl: `http://127.0.0.1:${server.port}` } });
    const refused = await failing.models.generateContent({ model: "gemini-2.5-flash", contents: "x" }).catch((e) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.status).toBe(401);
    const wrongMime = await ai.models
      .generateContent({ model: "gemini-2.5-flash", contents: "x", config: { responseMimeType: "text/x.enum" } })
      .catch((e) => e);
    expect(wrongMime).toBeInstanceOf(ApiError);
    expect(wrongMime.status).toBe(400);
    expect(wrongMime.message).toContain("responseMimeType");
    expect(wrongMime.message).toContain("INVALID_ARGUMENT");
  });

  test("candidateCount 3 asks the pivot for n = 3 and every candidate comes back, whole and streamed", async () => {
    const ask = { model: "gemini-2.5-flash", contents: "x", config: { candidateCount: 3 } };
    const reply = await ai.models.generateContent(ask);
    expect(seen.at(-1)!.n).toBe(3);
    expect(reply.candidates?.map((c) => [c.index, c.content?.parts?.[0]?.text, c.finishReason])).toEqual([
      [0, "answer 0", "STOP"],
      [1, "answer 1", "STOP"],
      [2, "answer 2", "STOP"],
    ]);
    const texts = ["", "", ""];
    let usage: unknown;
    for await (const part of await ai.models.generateContentStream(ask)) {
      for (const c of part.candidates ?? [])
        texts[c.index ?? 0] += c.content?.parts?.map((p) => p.text ?? "").join("") ?? "";
      usage = part.usageMetadata ?? usage;
    }
    expect(texts).toEqual(["answer 0", "answer 1", "answer 2"]);
    expect(usage).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 6 });
  });
});
