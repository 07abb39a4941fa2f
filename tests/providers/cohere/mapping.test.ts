import { describe, expect, test } from "bun:test";
import { cohereProvider } from "../../../src/gateway/relay/providers/cohere/provider";
import { cohereStreamMapper } from "../../../src/gateway/relay/providers/cohere/stream";
import { accumulatedToolCalls, mapInPieces } from "../support/mapped-stream";

const channel = { type: 34, key: "co-key-123456", base_url: "", other: "" };
const call = (path: string, json: Record<string, any>, stream = false) =>
  cohereProvider.request(channel, {
    path,
    model: "command-r",
    body: JSON.stringify(json),
    contentType: "application/json",
    stream,
    json,
  });
const bodyOf = (path: string, json: Record<string, any>, stream = false) =>
  JSON.parse(String(call(path, json, stream).body));

describe("OpenAI chat → Cohere /v2/chat", () => {
  test("address, bearer key, and the conversation with tool calls and answers in Cohere's message shape", () => {
    const req = call("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] });
    expect(req.url).toBe("https://api.cohere.ai/v2/chat");
    expect(req.headers.authorization).toBe("Bearer co-key-123456");
    const body = bodyOf("/v1/chat/completions", {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "t1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "t1", content: "sunny" },
      ],
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
      tool_choice: "required",
      max_completion_tokens: 80,
      top_p: 0.5,
      stop: ["END"],
    });
    expect(body).toEqual({
      model: "command-r",
      stream: false,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          tool_calls: [
            { id: "t1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "t1", content: "sunny" },
      ],
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
      tool_choice: "REQUIRED",
      max_tokens: 80,
      p: 0.5,
      stop_sequences: ["END"],
    });
  });

  test("what Cohere cannot carry is refused naming the parameter", () => {
    const messages = [{ role: "user", content: "hi" }];
    expect(() => call("/v1/chat/completions", { messages, n: 2 })).toThrow("n > 1 is not supported on Cohere channels");
    expect(() =>
      call("/v1/chat/completions", {
        messages,
        tools: [{ type: "function", function: { name: "f" } }],
        tool_choice: { type: "function", function: { name: "f" } },
      }),
    ).toThrow("tool_choice naming one function");
  });

  test("a reply: text, tool plan as reasoning, tool calls, finish, and usage from the billed units", () => {
    const reply = cohereProvider.mapResponse!(
      {
        id: "x1",
        finish_reason: "TOOL_CALL",
        message: {
          role: "assistant",
          tool_plan: "plan",
          tool_calls: [{ id: "t9", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        usage: {
          billed_units: { input_tokens: 5, output_tokens: 2 },
          tokens: { input_tokens: 70, output_tokens: 2 },
          cached_tokens: 3,
        },
      },
      "command-r",
    ) as any;
    expect(reply.choices[0]).toMatchObject({
      message: {
        content: null,
        reasoning_content: "plan",
        tool_calls: [{ id: "t9", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      finish_reason: "tool_calls",
    });
    expect(reply.usage).toMatchObject({
      prompt_tokens: 5,
      completion_tokens: 2,
      prompt_tokens_details: { cached_tokens: 3 },
    });
    const cut = cohereProvider.mapResponse!(
      {
        message: { content: [{ type: "text", text: "a" }] },
        finish_reason: "MAX_TOKENS",
        usage: { tokens: { input_tokens: 9, output_tokens: 1 } },
      },
      "m",
    ) as any;
    expect(cut.choices[0]).toMatchObject({ message: { content: "a" }, finish_reason: "length" });
    expect(cut.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 1 });
  });

  test("a stream cut anywhere maps to the same chunks: content, tool call argument deltas, finish, usage, [DONE]", async () => {
    const ev = (type: string, rest: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...rest })}\n\n`;
    const sse =
      ev("message-start", { id: "s1", delta: { message: { role: "assistant" } } }) +
      ev("content-delta", { index: 0, delta: { message: { content: { text: "Hé" } } } }) +
      ev("tool-call-start", {
        index: 1,
        delta: { message: { tool_calls: { id: "t1", type: "function", function: { name: "f", arguments: "" } } } },
      }) +
      ev("tool-call-delta", { index: 1, delta: { message: { tool_calls: { function: { arguments: '{"a":' } } } } }) +
      ev("tool-call-delta", { index: 1, delta: { message: { tool_calls: { function: { arguments: "1}" } } } } }) +
      ev("message-end", {
        delta: { finish_reason: "TOOL_CALL", usage: { billed_units: { input_tokens: 4, output_tokens: 6 } } },
      });
    for (const size of [3, 17, 10_000]) {
      const { chunks, done } = await mapInPieces(cohereStreamMapper("command-r"), sse, size);
      expect(done).toBe(true);
      expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Hé");
      expect(accumulatedToolCalls(chunks)).toEqual([{ id: "t1", name: "f", arguments: '{"a":1}' }]);
      expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("tool_calls");
      expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 6 });
    }
  });

  test("a stream without message-end claims no usage and no [DONE] (the relay counts, the call is broken)", async () => {
    const sse = `event: content-delta\ndata: ${JSON.stringify({ type: "content-delta", delta: { message: { content: { text: "x" } } } })}\n\n`;
    const { done, chunks } = await mapInPieces(cohereStreamMapper("m"), sse, 5);
    expect(done).toBe(false);
    expect(chunks.some((c) => c.usage)).toBe(false);
  });
});

describe("embeddings and rerank → /v2/embed and /v2/rerank", () => {
  test("embeddings: texts, input_type (documents unless the client names one), dimensions, base64 on request", () => {
    expect(call("/v1/embeddings", { input: "a" }).url).toBe("https://api.cohere.ai/v2/embed");
    expect(bodyOf("/v1/embeddings", { input: ["a", "b"], dimensions: 256 })).toEqual({
      model: "command-r",
      texts: ["a", "b"],
      input_type: "search_document",
      embedding_types: ["float"],
      output_dimension: 256,
    });
    expect(
      bodyOf("/v1/embeddings", { input: "q", input_type: "search_query", encoding_format: "base64" }),
    ).toMatchObject({
      input_type: "search_query",
      embedding_types: ["float", "base64"],
    });
    expect(() => call("/v1/embeddings", { input: [[1, 2]] })).toThrow("token arrays are not supported");
    expect(() => call("/v1/embeddings", { input: "a", input_type: "poetry" })).toThrow("input_type must be one of");
  });

  test("an embed reply is OpenAI's list, base64 as little-endian float32 when asked, usage from billed input tokens", () => {
    const vectors = [[0.5, -1]];
    const float = cohereProvider.mapResponse!(
      { embeddings: { float: vectors }, meta: { billed_units: { input_tokens: 4 } } },
      "embed-v4",
    ) as any;
    expect(float).toEqual({
      object: "list",
      model: "embed-v4",
      data: [{ object: "embedding", index: 0, embedding: [0.5, -1] }],
      usage: { prompt_tokens: 4, total_tokens: 4 },
    });
    const b64 = cohereProvider.mapResponse!(
      { embeddings: { float: vectors, base64: ["?"] }, meta: {} },
      "embed-v4",
    ) as any;
    const bytes = Buffer.from(b64.data[0].embedding, "base64");
    expect([...new Float32Array(bytes.buffer, bytes.byteOffset, 2)]).toEqual([0.5, -1]);
    expect(b64.usage).toBeUndefined();
  });

  test("rerank: query, documents (strings or {text}), top_n; return_documents refused; the reply's indexes and scores", () => {
    expect(call("/v1/rerank", { query: "q", documents: ["a"] }).url).toBe("https://api.cohere.ai/v2/rerank");
    expect(bodyOf("/v1/rerank", { query: "q", documents: ["a", { text: "b" }], top_n: 1 })).toEqual({
      model: "command-r",
      query: "q",
      documents: ["a", "b"],
      top_n: 1,
    });
    expect(() => call("/v1/rerank", { query: "q", documents: ["a"], return_documents: true })).toThrow(
      "return_documents is not supported",
    );
    expect(() => call("/v1/rerank", { query: "q", documents: [] })).toThrow("documents must be a non-empty array");
    const reply = cohereProvider.mapResponse!(
      { id: "r", results: [{ index: 1, relevance_score: 0.9 }], meta: { billed_units: { search_units: 1 } } },
      "rerank-v3.5",
    ) as any;
    expect(reply).toEqual({ id: "r", model: "rerank-v3.5", results: [{ index: 1, relevance_score: 0.9 }] });
  });
});
