import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { chatToResponse } from "../../../src/gateway/relay/dialects/responses/from-chat";
import { chatStreamToResponses } from "../../../src/gateway/relay/dialects/responses/stream";
import { responsesToChat } from "../../../src/gateway/relay/dialects/responses/to-chat";
import { byteStream, parallelCallsReply, reasoningTextReply, sseText } from "./pivot-stream";

/**
 * A loopback server answering /v1/responses with this dialect's translations of fixed pivot replies — a text
 * reply, or tool calls when the request offers tools — so the real `openai` SDK parses what the gateway would send.
 */
let server: ReturnType<typeof Bun.serve>;
let client: OpenAI;

function answer(body: any): Response {
  const { chat, toolNames } = responsesToChat(body);
  const context = { request: body, toolNames };
  const names = Object.keys(toolNames);
  const chunks = chat.tools ? parallelCallsReply(names[0]!, names[1]!) : reasoningTextReply;
  if (body.stream) {
    return new Response(chatStreamToResponses(byteStream(sseText(chunks), 5), context), {
      headers: { "content-type": "text/event-stream" },
    });
  }
  const message = chat.tools
    ? {
        content: null,
        tool_calls: [
          { id: "call_a", type: "function" as const, function: { name: names[0]!, arguments: '{"q":"x"}' } },
        ],
      }
    : { content: "Hello, world", reasoning_content: "Let me think." };
  return Response.json(
    chatToResponse(
      { choices: [{ message, finish_reason: "stop" }], usage: { prompt_tokens: 20, completion_tokens: 9 } },
      context,
    ),
  );
}

beforeAll(() => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (req) => answer(await req.json()) });
  client = new OpenAI({ apiKey: "sk-test", baseURL: `http://127.0.0.1:${server.port}/v1`, maxRetries: 0 });
});
afterAll(() => server.stop(true));

const tools: OpenAI.Responses.Tool[] = [
  { type: "function", name: "github.search", parameters: { type: "object", properties: {} }, strict: false },
  { type: "custom", name: "apply_patch" },
  { type: "web_search" },
];

describe("the official openai SDK reading translated Responses replies", () => {
  test("responses.create: a text reply with reasoning and usage", async () => {
    const response = await client.responses.create({ model: "gpt-x", input: "hi" });
    expect(response.output_text).toBe("Hello, world");
    expect(response.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
    expect(response.usage).toMatchObject({ input_tokens: 20, output_tokens: 9, total_tokens: 29 });
  });

  test("responses.create: a function call under its dotted name", async () => {
    const response = await client.responses.create({ model: "gpt-x", input: "search", tools });
    expect(response.output).toMatchObject([{ type: "function_call", name: "github.search", arguments: '{"q":"x"}' }]);
  });

  test("responses.stream: the text deltas, and a final response the SDK assembled itself", async () => {
    const stream = client.responses.stream({ model: "gpt-x", input: "hi" });
    const deltas: string[] = [];
    stream.on("response.output_text.delta", (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas.join("")).toBe("Hello, world");
    expect(final.output_text).toBe("Hello, world");
    expect(final.status).toBe("completed");
    expect(final.usage).toMatchObject({
      input_tokens: 20,
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 4 },
    });
  });

  test("responses.stream: parallel tool calls, arguments assembled from their deltas", async () => {
    const stream = client.responses.stream({ model: "gpt-x", input: "search", tools });
    const final = await stream.finalResponse();
    expect(final.output).toMatchObject([
      { type: "function_call", name: "github.search", call_id: "call_a", arguments: '{"q":"x"}' },
      { type: "custom_tool_call", name: "apply_patch", call_id: "call_b", input: "*** Begin Patch" },
    ]);
  });

  test("responses.create with stream: every event typed, numbered in order, ending with response.completed", async () => {
    const events = await client.responses.create({ model: "gpt-x", input: "hi", stream: true });
    const seen: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of events) seen.push(event);
    expect(seen.map((event) => event.sequence_number)).toEqual(seen.map((_, i) => i));
    expect(seen[0]!.type).toBe("response.created");
    expect(seen.at(-1)!.type).toBe("response.completed");
  });
});
