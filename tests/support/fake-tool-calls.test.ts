import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { startFakeAnthropic } from "./fake-anthropic";
import { startFakeGemini } from "./fake-gemini";
import { type FakeBehavior, type FakeUpstream, startFakeUpstream } from "./fake-upstream";

const KEY = "sk-fake-tools";
const ARGS = { path: "note.txt", lines: [1, 2] };
const SCRIPT: FakeBehavior = {
  content: "All done.",
  toolCall: { name: "read", arguments: ARGS },
  promptTokens: 30,
  completionTokens: 9,
  cachedTokens: 4,
  reasoningTokens: 5,
};
const schema = { type: "object", properties: { path: { type: "string" } } };

describe("scripted tool round trip: OpenAI chat and Responses", () => {
  let fake: FakeUpstream;
  let client: OpenAI;
  beforeAll(() => {
    fake = startFakeUpstream({ apiKey: KEY, behavior: SCRIPT, missingRoutes: ["POST /v1/embeddings"] });
    client = new OpenAI({ apiKey: KEY, baseURL: `${fake.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => fake.stop());
  const tools = [{ type: "function" as const, function: { name: "read", parameters: schema } }];
  const user = { role: "user" as const, content: "read it" };

  test("chat: a call of the offered tool, then the final text once the tool result is in; reasoning usage", async () => {
    const first = await client.chat.completions.create({ model: "m", messages: [user], tools });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect(call.type === "function" && JSON.parse(call.function.arguments)).toEqual(ARGS);
    expect(first.usage?.completion_tokens_details?.reasoning_tokens).toBe(5);
    const second = await client.chat.completions.create({
      model: "m",
      tools,
      messages: [user, first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "text" }],
    });
    expect(second.choices[0]!.message).toMatchObject({ content: "All done." });
    expect(second.choices[0]!.finish_reason).toBe("stop");
  });

  test("chat: without the tool offered the reply is text", async () => {
    const reply = await client.chat.completions.create({ model: "m", messages: [user] });
    expect(reply.choices[0]!.message.content).toBe("All done.");
  });

  test("chat stream: the call's arguments arrive as more than one delta", async () => {
    const stream = await client.chat.completions.create({ model: "m", messages: [user], tools, stream: true });
    const deltas: string[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments;
      if (piece) deltas.push(piece);
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(deltas.length).toBeGreaterThan(1);
    expect(JSON.parse(deltas.join(""))).toEqual(ARGS);
    expect(finish).toBe("tool_calls");
  });

  test("Responses stream: a function_call item, then text after a function_call_output", async () => {
    const rtools = [{ type: "function" as const, name: "read", parameters: schema, strict: false }];
    const stream = await client.responses.create({ model: "m", input: "read it", tools: rtools, stream: true });
    let done: any;
    const deltas: string[] = [];
    for await (const event of stream) {
      if (event.type === "response.function_call_arguments.delta") deltas.push(event.delta);
      if (event.type === "response.completed") done = event.response;
    }
    const [item] = done.output;
    expect(item).toMatchObject({ type: "function_call", name: "read" });
    expect(JSON.parse(deltas.join(""))).toEqual(ARGS);
    expect(done.usage.output_tokens_details.reasoning_tokens).toBe(5);
    const second = await client.responses.create({
      model: "m",
      tools: rtools,
      input: [item, { type: "function_call_output", call_id: item.call_id, output: "text" }],
    });
    expect(second.output_text).toBe("All done.");
  });

  test("missingRoutes answer 404 like an upstream without them, whatever the behaviour", async () => {
    const error = await client.embeddings.create({ model: "e", input: "x" }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    fake.queueBehavior({ status: 400 });
    const refused = await client.embeddings.create({ model: "e", input: "x" }).catch((e) => e);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe("scripted tool round trip: Anthropic Messages", () => {
  let fake: FakeUpstream;
  let client: Anthropic;
  beforeAll(() => {
    fake = startFakeAnthropic({ apiKey: KEY, behavior: { ...SCRIPT, cacheWriteTokens: 2 } });
    client = new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 });
  });
  afterAll(() => fake.stop());
  const tools = [{ name: "read", input_schema: schema as Anthropic.Tool.InputSchema }];

  test("stream: a tool_use block whose input arrives as input_json_deltas, then text after the tool_result", async () => {
    const stream = client.messages.stream({
      model: "claude-x",
      max_tokens: 100,
      tools,
      messages: [{ role: "user", content: "read it" }],
    });
    const partials: string[] = [];
    stream.on("inputJson", (partial) => partials.push(partial));
    const first = await stream.finalMessage();
    expect(first.stop_reason).toBe("tool_use");
    const [block] = first.content;
    expect(block).toMatchObject({ type: "tool_use", name: "read", input: ARGS });
    expect(partials.length).toBeGreaterThan(1);
    expect(first.usage).toMatchObject({ cache_read_input_tokens: 4, cache_creation_input_tokens: 2 });
    const second = await client.messages.create({
      model: "claude-x",
      max_tokens: 100,
      tools,
      messages: [
        { role: "user", content: "read it" },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: (block as any).id, content: "text" }] },
      ],
    });
    expect(second.content).toMatchObject([{ type: "text", text: "All done." }]);
    expect(second.stop_reason).toBe("end_turn");
  });
});

describe("scripted tool round trip: Gemini", () => {
  let fake: FakeUpstream;
  let client: GoogleGenAI;
  beforeAll(() => {
    fake = startFakeGemini({ apiKey: KEY, behavior: SCRIPT });
    client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: fake.url, apiVersion: "v1beta" } });
  });
  afterAll(() => fake.stop());
  const config = { tools: [{ functionDeclarations: [{ name: "read", parametersJsonSchema: schema }] }] };

  test("stream: a functionCall part with thoughts usage, then text after the functionResponse", async () => {
    const stream = await client.models.generateContentStream({ model: "gemini-x", contents: "read it", config });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const call = chunks.flatMap((c) => c.functionCalls ?? [])[0];
    expect(call).toMatchObject({ name: "read", args: ARGS });
    expect(chunks.at(-1)!.usageMetadata).toMatchObject({ thoughtsTokenCount: 5, cachedContentTokenCount: 4 });
    const second = await client.models.generateContent({
      model: "gemini-x",
      config,
      contents: [
        { role: "user", parts: [{ text: "read it" }] },
        { role: "model", parts: [{ functionCall: call }] },
        { role: "user", parts: [{ functionResponse: { name: "read", response: { output: "text" } } }] },
      ],
    });
    expect(second.text).toBe("All done.");
  });
});
