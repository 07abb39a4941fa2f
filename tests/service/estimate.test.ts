import { describe, expect, test } from "bun:test";
import {
  countTextTokens,
  encodingFor,
  estimateChatPromptTokens,
  estimateInputTokens,
  IMAGE_LOW_DETAIL_TOKENS,
  IMAGE_TOKENS,
} from "../../src/service/billing/estimate";

describe("text is counted with the model's OpenAI encoding", () => {
  test("well-known counts", () => {
    expect(countTextTokens("gpt-3.5-turbo", "hello world")).toBe(2);
    expect(countTextTokens("gpt-4", "tiktoken is great!")).toBe(6);
    expect(countTextTokens("gpt-4o", "Hello, world!")).toBe(4);
    expect(countTextTokens("gpt-4o", "")).toBe(0);
  });

  test("o200k_base for gpt-4o, gpt-4.1, gpt-5 and o-series; cl100k_base for gpt-4, gpt-3.5 and embeddings; o200k_base otherwise", () => {
    for (const model of [
      "gpt-4o",
      "gpt-4o-mini",
      "chatgpt-4o-latest",
      "gpt-4.1-nano",
      "gpt-5",
      "o1",
      "o3-mini",
      "o4-mini",
      "claude-sonnet-4-20250514",
      "deepseek-chat",
    ]) {
      expect([model, encodingFor(model)]).toEqual([model, "o200k_base"]);
    }
    for (const model of [
      "gpt-4",
      "gpt-4-turbo",
      "gpt-4-0613",
      "gpt-3.5-turbo",
      "text-embedding-3-small",
      "text-embedding-ada-002",
      "openai/gpt-4",
    ]) {
      expect([model, encodingFor(model)]).toEqual([model, "cl100k_base"]);
    }
  });

  test("the encodings differ where they should: CJK text is cheaper in o200k_base", () => {
    expect(countTextTokens("gpt-4", "你好，世界")).toBe(6);
    expect(countTextTokens("gpt-4o", "你好，世界")).toBe(3);
  });

  test("special-token text in user input counts as plain text instead of throwing", () => {
    expect(countTextTokens("gpt-4o", "<|endoftext|> hi")).toBe(8);
  });
});

/** The example of OpenAI's cookbook "How to count tokens with tiktoken", verified there against the API. */
const COOKBOOK_MESSAGES = [
  {
    role: "system",
    content: "You are a helpful, pattern-following assistant that translates corporate jargon into plain English.",
  },
  { role: "system", name: "example_user", content: "New synergies will help drive top-line growth." },
  { role: "system", name: "example_assistant", content: "Things working well together will increase revenue." },
  {
    role: "system",
    name: "example_user",
    content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
  },
  {
    role: "system",
    name: "example_assistant",
    content: "Let's talk later when we're less busy about how to do better.",
  },
  { role: "user", content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
];

describe("OpenAI chat format adds 3 per message, 3 per name, 8 per tool and 3 for the reply", () => {
  test("one message: its text + 3 + 3", () => {
    expect(estimateChatPromptTokens("gpt-4o", [{ role: "user", content: "hello world" }])).toBe(2 + 3 + 3);
  });

  test("a name costs 3 plus its text", () => {
    const named = estimateChatPromptTokens("gpt-4o", [{ role: "user", name: "bob", content: "hello world" }]);
    expect(named).toBe(2 + 3 + 3 + 3 + countTextTokens("gpt-4o", "bob"));
  });

  test("a tool costs 8 plus its name, description and parameter schema", () => {
    const parameters = { type: "object", properties: { city: { type: "string" } } };
    const tool = { type: "function", function: { name: "get_weather", description: "Weather of a city", parameters } };
    const text = ["get_weather", "Weather of a city", JSON.stringify(parameters)].reduce(
      (n, s) => n + countTextTokens("gpt-4o", s),
      0,
    );
    expect(estimateChatPromptTokens("gpt-4o", [], [tool])).toBe(3 + 8 + text);
  });

  test("the cookbook example: the tokenizer matches the API's count, and the dialect's rule differs only by roles and names", () => {
    for (const [model, apiCount] of [
      ["gpt-4", 129],
      ["gpt-4o", 124],
    ] as const) {
      // The cookbook's rule: 3 per message, every field's text (roles included), 1 per name, 3 for the reply.
      let cookbook = 3;
      for (const message of COOKBOOK_MESSAGES) {
        cookbook += 3 + Object.values(message).reduce((n, v) => n + countTextTokens(model, v), 0);
        if ("name" in message) cookbook += 1;
      }
      expect(cookbook).toBe(apiCount);
      // Ours leaves out the six one-token roles and charges 3 instead of 1 for each of the four names.
      expect(estimateChatPromptTokens(model, COOKBOOK_MESSAGES)).toBe(apiCount - 6 + 4 * 2);
    }
  });

  test("content parts: text parts are counted, images cost a fixed estimate", () => {
    const content = [
      { type: "text", text: "hello world" },
      { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
      { type: "image_url", image_url: { url: "https://example.com/b.png" } },
    ];
    expect(estimateChatPromptTokens("gpt-4o", [{ role: "user", content }])).toBe(
      2 + IMAGE_LOW_DETAIL_TOKENS + IMAGE_TOKENS + 3 + 3,
    );
  });

  test("assistant tool calls count their name and arguments; null content counts nothing", () => {
    const call = { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } };
    const tokens = estimateChatPromptTokens("gpt-4o", [{ role: "assistant", content: null, tool_calls: [call] }]);
    expect(tokens).toBe(
      countTextTokens("gpt-4o", "get_weather") + countTextTokens("gpt-4o", '{"city":"Paris"}') + 3 + 3,
    );
  });

  test("malformed messages do not throw", () => {
    expect(estimateChatPromptTokens("gpt-4o", [null, 42, { content: { odd: true } }], "nope" as any)).toBe(3 * 3 + 3);
  });
});

describe("inputs of embeddings and completions", () => {
  test("a string, a list of strings, a token array, a list of token arrays", () => {
    expect(estimateInputTokens("text-embedding-3-small", "hello world")).toBe(2);
    expect(estimateInputTokens("text-embedding-3-small", ["hello world", "tiktoken is great!"])).toBe(8);
    expect(estimateInputTokens("text-embedding-3-small", [15339, 1917])).toBe(2);
    expect(
      estimateInputTokens("text-embedding-3-small", [
        [15339, 1917],
        [1, 2, 3],
      ]),
    ).toBe(5);
    expect(estimateInputTokens("text-embedding-3-small", [])).toBe(0);
    expect(estimateInputTokens("text-embedding-3-small", undefined)).toBe(0);
  });
});
