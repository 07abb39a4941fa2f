import { describe, expect, test } from "bun:test";
import type {
  ContentEmbedding,
  CountTokensResponse,
  EmbedContentResponse,
  ListModelsResponse,
  Model,
} from "@google/genai";
import { RelayError } from "../../../src/shared/relay-error";
import { geminiKey } from "../../../src/gateway/relay/dialects/gemini/auth";
import { countTokensReply, countTokensTexts } from "../../../src/gateway/relay/dialects/gemini/count-tokens";
import {
  batchEmbedReplyOf,
  batchEmbedToOpenAI,
  embedReplyOf,
  embedToOpenAI,
} from "../../../src/gateway/relay/dialects/gemini/embed";
import { geminiErrorBody, geminiErrorOf } from "../../../src/gateway/relay/dialects/gemini/errors";
import { modelActionOf } from "../../../src/gateway/relay/dialects/gemini/model-path";
import { geminiModel, geminiModelList } from "../../../src/gateway/relay/dialects/gemini/models";

const refused = (run: () => unknown, status = 400) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).status).toBe(status);
    return (error as RelayError).message;
  }
  throw new Error("expected a refusal");
};

describe("Gemini path, key and errors", () => {
  test("model and action from the path, with or without models/ and URL-encoded", () => {
    expect(modelActionOf("models/gemini-2.5-flash:generateContent")).toEqual({
      model: "gemini-2.5-flash",
      action: "generateContent",
    });
    expect(modelActionOf("gemini-2.5-pro:streamGenerateContent")).toEqual({
      model: "gemini-2.5-pro",
      action: "streamGenerateContent",
    });
    expect(modelActionOf("models/text-embedding-004%3AbatchEmbedContents").action).toBe("batchEmbedContents");
    expect(refused(() => modelActionOf("models/:generateContent"))).toContain("model");
    expect(refused(() => modelActionOf("models/x:predict"), 404)).toContain("predict");
  });

  test("the key from x-goog-api-key (preferred) or ?key=", () => {
    const url = (q = "") => new URL(`http://gw/v1beta/models${q}`);
    expect(geminiKey(new Headers({ "x-goog-api-key": "sk-h" }), url("?key=sk-q"))).toBe("sk-h");
    expect(geminiKey(new Headers(), url("?key=sk-q"))).toBe("sk-q");
    expect(geminiKey(new Headers({ authorization: "Bearer sk-b" }), url())).toBeUndefined();
  });

  test("Google's error shape with canonical status names", () => {
    const statuses = [400, 401, 403, 404, 429, 500, 503].map((code) => geminiErrorBody(code, "m").error.status);
    expect(statuses).toEqual([
      "INVALID_ARGUMENT",
      "UNAUTHENTICATED",
      "PERMISSION_DENIED",
      "NOT_FOUND",
      "RESOURCE_EXHAUSTED",
      "INTERNAL",
      "UNAVAILABLE",
    ]);
    expect(geminiErrorBody(402, "m").error.status).toBe("FAILED_PRECONDITION");
    expect(geminiErrorBody(502, "m").error.status).toBe("INTERNAL");
    expect(geminiErrorOf(new RelayError(429, "slow down", "rate_limited"))).toEqual({
      error: { code: 429, message: "slow down", status: "RESOURCE_EXHAUSTED" },
    });
  });
});

describe("Gemini countTokens, embeddings and models", () => {
  test("countTokens: the texts of contents, or of a whole generateContentRequest", () => {
    expect(countTokensTexts({ contents: [{ role: "user", parts: [{ text: "hello" }, { text: "world" }] }] })).toEqual([
      "hello",
      "world",
    ]);
    const texts = countTokensTexts({
      generateContentRequest: {
        model: "models/gemini-2.5-flash",
        systemInstruction: { parts: [{ text: "Be brief." }] },
        contents: [
          { role: "user", parts: [{ text: "weather?" }] },
          { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }] },
          { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { temp: 20 } } }] },
        ],
        tools: [{ functionDeclarations: [{ name: "get_weather" }] }],
      },
    });
    expect(texts).toEqual([
      "Be brief.",
      "weather?",
      "get_weather",
      '{"city":"Paris"}',
      "get_weather",
      '{"temp":20}',
      '[{"name":"get_weather"}]',
    ]);
    const reply: CountTokensResponse = countTokensReply(17);
    expect(reply).toEqual({ totalTokens: 17 });
    expect(refused(() => countTokensTexts({}))).toContain("contents");
  });

  test("embedContent ↔ /v1/embeddings", () => {
    expect(
      embedToOpenAI(
        { content: { parts: [{ text: "a" }, { text: "b" }] }, outputDimensionality: 256 },
        "text-embedding-004",
      ),
    ).toEqual({ model: "text-embedding-004", input: "a\nb", encoding_format: "float", dimensions: 256 });
    const reply: { embedding: ContentEmbedding } = embedReplyOf({ data: [{ index: 0, embedding: [0.1, 0.2] }] });
    expect(reply).toEqual({ embedding: { values: [0.1, 0.2] } });
    expect(refused(() => embedToOpenAI({ content: { parts: [{ inlineData: { data: "x" } }] } }, "m"))).toContain(
      "text",
    );
  });

  test("batchEmbedContents ↔ /v1/embeddings, in order", () => {
    const request = batchEmbedToOpenAI(
      {
        requests: [
          { model: "models/text-embedding-004", content: { parts: [{ text: "one" }] } },
          { model: "models/text-embedding-004", content: { parts: [{ text: "two" }] } },
        ],
      },
      "text-embedding-004",
    );
    expect(request).toEqual({ model: "text-embedding-004", input: ["one", "two"], encoding_format: "float" });
    // The SDK reads the batch reply as its EmbedContentResponse.
    const reply: EmbedContentResponse = batchEmbedReplyOf({
      data: [
        { index: 1, embedding: [2] },
        { index: 0, embedding: [1] },
      ],
    });
    expect(reply).toEqual({ embeddings: [{ values: [1] }, { values: [2] }] } as never);
    expect(refused(() => batchEmbedToOpenAI({ requests: [] }, "m"))).toContain("requests");
    expect(
      refused(() =>
        batchEmbedToOpenAI({ requests: [{ model: "models/other", content: { parts: [{ text: "x" }] } }] }, "m"),
      ),
    ).toContain("requests[0].model");
    expect(
      refused(() =>
        batchEmbedToOpenAI(
          {
            requests: [
              { content: { parts: [{ text: "x" }] }, outputDimensionality: 8 },
              { content: { parts: [{ text: "y" }] }, outputDimensionality: 16 },
            ],
          },
          "m",
        ),
      ),
    ).toContain("outputDimensionality");
  });

  test("models: Gemini's Model shape, methods by kind, paged list", () => {
    const model: Model = geminiModel("gemini-2.5-flash");
    expect(model).toMatchObject({
      name: "models/gemini-2.5-flash",
      displayName: "gemini-2.5-flash",
      supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
    } as never);
    expect(geminiModel("models/text-embedding-004").supportedGenerationMethods).toEqual([
      "embedContent",
      "batchEmbedContents",
    ]);
    const names = ["a", "b", "c"];
    const all: ListModelsResponse = geminiModelList(names) as never;
    expect(all.models?.map((m) => m.name)).toEqual(["models/a", "models/b", "models/c"]);
    expect(all.nextPageToken).toBeUndefined();
    const first = geminiModelList(names, { pageSize: 2 });
    expect(first.models.map((m) => m.name)).toEqual(["models/a", "models/b"]);
    const second = geminiModelList(names, { pageSize: 2, pageToken: first.nextPageToken });
    expect(second.models.map((m) => m.name)).toEqual(["models/c"]);
    expect(second.nextPageToken).toBeUndefined();
  });
});
